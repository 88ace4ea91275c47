from vllm import LLM

from evalkit.params import GREEDY_EVAL


def make_rollout_engine():
    return LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def evaluate(messages):
    llm = make_rollout_engine()
    return llm.chat(messages, sampling_params=GREEDY_EVAL)
