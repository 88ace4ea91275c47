import dataclasses
import uuid

import bentoml

from sampling_defaults import DEFAULT_SAMPLING

MODEL_ID = "Qwen/Qwen3-8B"
EXPLORATION = dataclasses.replace(DEFAULT_SAMPLING, temperature=0.9)


@bentoml.service(resources={"gpu": 1, "gpu_type": "nvidia-h100-80gb"}, traffic={"timeout": 600})
class PolicySampler:
    def __init__(self) -> None:
        from vllm import AsyncEngineArgs
        from vllm.v1.engine.async_llm import AsyncLLM

        engine_args = AsyncEngineArgs(
            model=MODEL_ID,
            max_model_len=16384,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.engine = AsyncLLM.from_engine_args(engine_args)

    @bentoml.api
    async def sample(self, prompt: str) -> dict:
        from vllm import SamplingParams

        params = SamplingParams(
            temperature=EXPLORATION.temperature,
            top_k=EXPLORATION.top_k,
            max_tokens=EXPLORATION.max_tokens,
            presence_penalty=EXPLORATION.presence_penalty,
            repetition_penalty=EXPLORATION.repetition_penalty,
            logprobs=0,
        )
        final = None
        async for output in self.engine.generate(prompt, params, request_id=uuid.uuid4().hex):
            final = output
        completion = final.outputs[0]
        return {"token_ids": list(completion.token_ids), "text": completion.text}
