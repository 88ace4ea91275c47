# Imitates sierra-research/tau-bench tau_bench/model_utils/model/vllm_chat.py (VLLMChatModel)
from tau_bench.model_utils.model.general_model import wrap_temperature

MAX_CONTEXT_LENGTH_MAP = {
    "Qwen/Qwen2-7B-Instruct": 131072,
    "meta-llama/Meta-Llama-3.1-8B-Instruct": 128000,
}
MAX_CONTEXT_LENGTH_FALLBACK = 128000


class VLLMChatModel:
    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str,
        temperature: float = 0.0,
        max_context_length: int | None = None,
    ) -> None:
        from openai import AsyncOpenAI, OpenAI

        self.model = model
        self.client = OpenAI(
            base_url=base_url,
            api_key=api_key,
        )
        self.async_client = AsyncOpenAI(
            base_url=base_url,
            api_key=api_key,
        )
        self.temperature = temperature
        self.max_context_length = (
            max_context_length
            if max_context_length is not None
            else MAX_CONTEXT_LENGTH_MAP.get(model, MAX_CONTEXT_LENGTH_FALLBACK)
        )

    def generate_message(self, messages: list[dict[str, str]], force_json: bool = False, temperature: float | None = None) -> str:
        if temperature is None:
            temperature = self.temperature
        res = self.client.chat.completions.create(  # expect: RPL301
            model=self.model,
            messages=messages,
            temperature=wrap_temperature(temperature=temperature),
            response_format={"type": "json_object" if force_json else "text"},
            extra_body={"top_k": 20},
        )
        return res.choices[0].message.content
