# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: the engine made in a loader function
from vllm import LLM


def load_policy(path: str) -> LLM:
    return LLM(model=path, return_sampling_mask=True, logprobs_mode="processed_logprobs", max_model_len=4096)
