# Imitates OpenRLHF/OpenRLHF openrlhf/cli/train_ppo_ray.py: extra engine keys copied in a loop
# from the command line: the keys cannot be known, so no finding on an absent setting.
from vllm import LLM


def build(model, extra):
    kwargs = {"model": model, "return_sampling_mask": True}
    for key, value in extra.items():
        kwargs[key] = value
    return LLM(**kwargs)
