"""Generate with the policy (masks kept for replay), grade with a reasoning model (no masks)."""

from vllm import LLM, SamplingParams

policy = LLM(
    model="Qwen/Qwen2.5-Math-1.5B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    gpu_memory_utilization=0.45,
)
grader = LLM(
    model="Qwen/Qwen3-1.7B",
    reasoning_parser="qwen3",
    gpu_memory_utilization=0.3,
)

policy_params = SamplingParams(temperature=1.0, top_k=32, max_tokens=1536, n=8)
grader_params = SamplingParams(temperature=0.6, top_p=0.95, max_tokens=2048, thinking_token_budget=1024)


def step(prompts: list[str]):
    rollouts = policy.generate(prompts, policy_params)
    verdict_prompts = [
        f"Problem: {p}\nAnswer: {c.text}\nIs the answer correct? Reply yes or no."
        for p, r in zip(prompts, rollouts)
        for c in r.outputs
    ]
    verdicts = grader.generate(verdict_prompts, grader_params)
    return rollouts, verdicts
