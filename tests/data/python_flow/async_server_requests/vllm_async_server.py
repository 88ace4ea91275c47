# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py: an AsyncLLM made
# from engine arguments in `launch_server`, greedy validation requests sent in `generate`.
from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM


class vLLMHttpServer:
    def __init__(self, model):
        self.model = model

    def launch_server(self):
        engine_args = AsyncEngineArgs(model=self.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.engine = AsyncLLM.from_engine_args(engine_args)

    async def generate(self, prompt, request_id):
        params = SamplingParams(temperature=0.0, top_k=1, max_tokens=512)  # expect: RPL101
        async for output in self.engine.generate(prompt, params, request_id):
            yield output
