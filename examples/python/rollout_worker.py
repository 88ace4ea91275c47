"""RL rollout worker: generates completions and keeps the sampling masks for replay in the trainer."""

from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen3-8B"


def build_engine(tensor_parallel_size: int = 1) -> LLM:
    return LLM(
        MODEL,
        tensor_parallel_size=tensor_parallel_size,
        return_sampling_mask=True,
        enable_prefix_caching=True,
    )


def rollout(prompts: list[str]) -> list:
    llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(temperature=1.0, top_p=0.95, max_tokens=1024, logprobs=0)
    return llm.generate(prompts, params)
