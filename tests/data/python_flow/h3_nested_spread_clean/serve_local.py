# Imitates huggingface/open-r1 src/open_r1/ evaluation helpers, where engine arguments are merged
# with nested `**{**a, **b}` right inside the call.
from vllm import LLM

COMMON = {"dtype": "bfloat16", "max_model_len": 32768, "gpu_memory_utilization": 0.8}
REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


def load(model_name):
    return LLM(model=model_name, **{**COMMON, **{**REPLAY, "seed": 42}})


llm = load("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B")
