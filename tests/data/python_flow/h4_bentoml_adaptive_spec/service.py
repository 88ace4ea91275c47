# Imitates bentoml/BentoVLLM/llama3.1-8b-instruct/service.py
import bentoml

MODEL_ID = "meta-llama/Llama-3.1-8B-Instruct"
MAX_MODEL_LEN = 8192
SPEC = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    "enable_adaptive_verification": True,  # expect: RPL002
}


@bentoml.service(resources={"gpu": 1, "gpu_type": "nvidia-l4"}, traffic={"timeout": 300})
class VLLM:
    def __init__(self) -> None:
        from vllm import AsyncEngineArgs, AsyncLLMEngine

        engine_args = AsyncEngineArgs(
            model=MODEL_ID,
            max_model_len=MAX_MODEL_LEN,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            speculative_config=SPEC,
        )
        self.engine = AsyncLLMEngine.from_engine_args(engine_args)

    @bentoml.api
    async def generate(self, prompt: str = "Explain superconductors.", max_tokens: int = 1024):
        from vllm import SamplingParams

        params = SamplingParams(max_tokens=max_tokens, temperature=0.6, top_k=20)
        stream = self.engine.generate(prompt, params, bentoml.server_context.request_id)
        async for request_output in stream:
            yield request_output.outputs[0].text
