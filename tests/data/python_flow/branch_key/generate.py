# Imitates allenai/open-instruct open_instruct/grpo_fast.py: the mask turned on under a flag.
from vllm import LLM


def build(model, replay):
    kwargs = {"model": model, "gpu_memory_utilization": 0.9}
    if replay:
        kwargs["return_sampling_mask"] = True  # expect: RPL003 "when `replay` is true"
    return LLM(**kwargs)
