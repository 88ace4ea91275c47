# Imitates Jiayi-Pan/TinyZero/scripts/generate_rollouts.py (a partial of SamplingParams for each pass)
import functools

from vllm import LLM, SamplingParams

llm = LLM(
    "Qwen/Qwen2.5-3B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    max_model_len=2048,
)

make_params = functools.partial(
    SamplingParams,
    temperature=1.0,
    top_k=-1,  # expect: RPL102
    max_tokens=1024,
)


def rollout(prompts, n=8):
    return llm.generate(prompts, make_params(n=n))


if __name__ == "__main__":
    rollout(["Using the numbers [3, 7, 9], create an equation that equals 30."])
