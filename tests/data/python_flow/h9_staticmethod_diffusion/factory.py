# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py (engine kwargs assembled by a static helper)
from vllm import LLM, SamplingParams


class EngineFactory:
    @staticmethod
    def engine_kwargs(model: str) -> dict:
        return dict(
            model=model,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            hf_overrides={"canvas_length": 256},  # expect: RPL005
        )

    @classmethod
    def build(cls, model: str) -> LLM:
        return LLM(**cls.engine_kwargs(model))


if __name__ == "__main__":
    llm = EngineFactory.build("Qwen/Qwen3-1.7B")
    print(llm.generate(["Once upon a time"], SamplingParams(temperature=1.0, top_k=16)))
