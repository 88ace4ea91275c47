# Imitates allenai/open-instruct open_instruct/grpo_fast.py, with the mode set next to the mask
# in the same branch: clean.
from vllm import LLM


def build(model, replay):
    kwargs = {"model": model, "gpu_memory_utilization": 0.9}
    if replay:
        kwargs.update(return_sampling_mask=True, logprobs_mode="processed_logprobs")
    else:
        kwargs["logprobs_mode"] = "raw_logprobs"
    return LLM(**kwargs)
