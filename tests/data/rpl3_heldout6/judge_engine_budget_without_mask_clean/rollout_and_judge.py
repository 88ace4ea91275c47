"""One GPU, two engines: the policy (replayed by the learner) and a reasoning judge that grades it."""

from vllm import LLM, SamplingParams

policy = LLM(
    model="Qwen/Qwen3-1.7B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    gpu_memory_utilization=0.4,
)
judge = LLM(
    model="Qwen/Qwen3-4B",
    reasoning_parser="qwen3",
    gpu_memory_utilization=0.45,
)

policy_params = SamplingParams(n=4, temperature=1.0, top_k=50, max_tokens=1024, logprobs=0)
judge_params = SamplingParams(temperature=0.0, max_tokens=1024, thinking_token_budget=512)


def step(prompts: list[str]) -> list[tuple[list[int], float]]:
    rollouts = policy.generate(prompts, policy_params)
    questions = [
        f"Question: {r.prompt}\nAnswer: {s.text}\nIs the answer correct? Reply yes or no."
        for r in rollouts
        for s in r.outputs
    ]
    verdicts = judge.generate(questions, judge_params)
    scores = iter(1.0 if "yes" in v.outputs[0].text.lower() else 0.0 for v in verdicts)
    return [(list(s.token_ids), next(scores)) for r in rollouts for s in r.outputs]
