# Imitates huggingface/open-r1/src/open_r1/generate.py with a reward engine beside the policy (engines kept in a dict; the greedy judge has no replay)
from vllm import LLM, SamplingParams

POLICY = "Qwen/Qwen2.5-1.5B-Instruct"
REWARD = "Qwen/Qwen2.5-7B-Instruct"

engines = {
    "policy": LLM(POLICY, return_sampling_mask=True, logprobs_mode="processed_logprobs", gpu_memory_utilization=0.3),
    "reward": LLM(REWARD, gpu_memory_utilization=0.5),
}


def sample(prompts: list[str]):
    params = SamplingParams(temperature=0.8, top_k=40, max_tokens=512, n=4)
    return engines["policy"].generate(prompts, params)


def score(answers: list[str]):
    judge_params = SamplingParams(temperature=0.0, max_tokens=4)
    return engines["reward"].generate(answers, judge_params)


if __name__ == "__main__":
    outs = sample(["What is 7 * 6?"])
    print(score([c.text for o in outs for c in o.outputs]))
