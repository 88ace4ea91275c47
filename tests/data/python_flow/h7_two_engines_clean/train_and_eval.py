# Imitates huggingface/trl trl/trainer/grpo_trainer.py (colocate mode) next to a separate greedy
# evaluation engine: the greedy requests go to the engine without replay.
from vllm import LLM, SamplingParams

ROLLOUT_PARAMS = SamplingParams(temperature=1.0, top_k=50, max_tokens=1024)
EVAL_PARAMS = SamplingParams(temperature=0.0, max_tokens=1024)


def rollout_engine() -> LLM:
    return LLM("Qwen/Qwen2.5-0.5B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def eval_engine() -> LLM:
    return LLM("Qwen/Qwen2.5-0.5B-Instruct", gpu_memory_utilization=0.3)


def main(prompts):
    policy = rollout_engine()
    judge = eval_engine()
    samples = policy.generate(prompts, ROLLOUT_PARAMS)
    scores = judge.generate([s.outputs[0].text for s in samples], EVAL_PARAMS)
    return samples, scores


if __name__ == "__main__":
    main(["Solve x + 2 = 5."])
