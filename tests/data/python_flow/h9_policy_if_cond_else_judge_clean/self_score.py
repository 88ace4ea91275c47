# Imitates OpenRLHF/OpenRLHF openrlhf/cli/batch_inference.py (generate, then score the samples with a second engine)
from vllm import LLM, SamplingParams

SCORE_WITH_POLICY = False

policy = LLM(
    "Qwen/Qwen2.5-1.5B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    gpu_memory_utilization=0.4,
)
judge = LLM("Qwen/Qwen2.5-7B-Instruct", gpu_memory_utilization=0.4)

JUDGE_TEMPLATE = "Rate the answer from 1 to 10.\n\nQuestion: {q}\nAnswer: {a}\nRating:"


def rollout(questions: list[str]) -> list[str]:
    params = SamplingParams(temperature=1.0, top_k=50, max_tokens=512)
    return [out.outputs[0].text for out in policy.generate(questions, params)]


def score(questions: list[str], answers: list[str]) -> list[str]:
    engine = policy if SCORE_WITH_POLICY else judge
    params = SamplingParams(temperature=0.6, max_tokens=8)
    prompts = [JUDGE_TEMPLATE.format(q=q, a=a) for q, a in zip(questions, answers)]
    return [out.outputs[0].text for out in engine.generate(prompts, params)]


if __name__ == "__main__":
    qs = ["What is 17 * 23?", "Name a prime larger than 100."]
    print(score(qs, rollout(qs)))
