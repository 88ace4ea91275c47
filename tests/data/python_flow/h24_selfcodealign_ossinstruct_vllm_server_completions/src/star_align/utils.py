# Imitates bigcode-project/selfcodealign src/star_align/utils.py: OpenAIClient wraps
# openai.AsyncClient() (its address from OPENAI_BASE_URL) and sends completions.
import openai


class OpenAIClient:
    def __init__(self):
        self.async_client = openai.AsyncClient()

    async def completions_with_backoff_async(self, *args, **kwargs):
        return await self.async_client.completions.create(*args, **kwargs)  # expect: RPL301

    async def dispatch_completions(self, request_params):
        return [await self.completions_with_backoff_async(**params) for params in request_params]
