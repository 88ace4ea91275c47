# Imitates allenai/open-instruct open_instruct/judge_utils.py: a policy with replay and a judge engine, the greedy params sent to the policy
from vllm import LLM, SamplingParams

policy = LLM("allenai/OLMo-2-1124-7B-SFT", return_sampling_mask=True, logprobs_mode="processed_logprobs", gpu_memory_utilization=0.45)
judge = LLM("Qwen/Qwen2.5-7B-Instruct", gpu_memory_utilization=0.45)

EVAL_PARAMS = SamplingParams(temperature=0.0, top_k=1, max_tokens=512)  # expect: RPL101 "temperature > 0"
JUDGE_PARAMS = SamplingParams(temperature=0.7, max_tokens=8)


def run(engine, prompts, params):
    return engine.generate(prompts, params)


def evaluate(prompts):
    outs = run(policy, prompts, EVAL_PARAMS)
    return run(judge, [o.outputs[0].text for o in outs], JUDGE_PARAMS)


if __name__ == "__main__":
    evaluate(["What is 12*12?"])
