# Imitates huggingface/open-r1/src/open_r1/generate.py (a policy engine and a greedy judge engine)
from vllm import LLM, SamplingParams

POLICY = "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B"
JUDGE = "Qwen/Qwen2.5-7B-Instruct"


def make_policy() -> LLM:
    return LLM(POLICY, return_sampling_mask=True, logprobs_mode="processed_logprobs", max_model_len=8192)


def make_judge() -> LLM:
    return LLM(JUDGE, max_model_len=4096, gpu_memory_utilization=0.3)


def grade(judge: LLM, answers: list[str]) -> list[str]:
    greedy = SamplingParams(temperature=0.0, max_tokens=8)
    return [out.outputs[0].text for out in judge.generate(answers, greedy)]


def main():
    policy = make_policy()
    judge = make_judge()
    params = SamplingParams(temperature=0.7, top_k=40, max_tokens=4096)
    answers = [out.outputs[0].text for out in policy.generate(["Prove that 2 is prime."], params)]
    print(grade(judge, answers))


if __name__ == "__main__":
    main()
