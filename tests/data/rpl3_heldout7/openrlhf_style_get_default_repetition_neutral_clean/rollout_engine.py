"""Single-node rollout engine for our GRPO runs, modelled on OpenRLHF's samples generator."""

from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen2.5-1.5B-Instruct",
    gpu_memory_utilization=0.85,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


def build_sampling_params(**generate_kwargs) -> SamplingParams:
    return SamplingParams(
        temperature=generate_kwargs.get("temperature", 1.0),
        top_p=generate_kwargs.get("top_p", 1.0),
        top_k=generate_kwargs.get("top_k", 50),
        max_tokens=generate_kwargs.get("max_new_tokens", 1024),
        min_tokens=generate_kwargs.get("min_new_tokens", 1),
        repetition_penalty=generate_kwargs.get("repetition_penalty", 1.0),
        skip_special_tokens=generate_kwargs.get("skip_special_tokens", False),
        logprobs=1,
    )


def generate_samples(prompts: list[str]):
    params = build_sampling_params(temperature=1.0, top_k=40, max_new_tokens=2048)
    return llm.generate(prompts, params)
