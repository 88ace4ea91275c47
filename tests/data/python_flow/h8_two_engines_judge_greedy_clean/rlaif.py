# Imitates allenai/open-instruct open_instruct/judge_utils.py: a policy with replay and a judge engine without, in one module
from vllm import LLM, SamplingParams

policy = LLM("allenai/OLMo-2-1124-7B-SFT", return_sampling_mask=True, logprobs_mode="processed_logprobs", gpu_memory_utilization=0.45)
judge = LLM("Qwen/Qwen2.5-7B-Instruct", gpu_memory_utilization=0.45)

JUDGE_PARAMS = SamplingParams(temperature=0.0, max_tokens=8)


def score(responses):
    prompts = [f"Rate 1-10: {r}" for r in responses]
    return judge.generate(prompts, JUDGE_PARAMS)


def step(prompts):
    outs = policy.generate(prompts, SamplingParams(temperature=1.0, top_k=20, max_tokens=512))
    return score([o.outputs[0].text for o in outs])


if __name__ == "__main__":
    step(["Write a haiku."])
