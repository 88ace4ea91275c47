# Imitates allenai/open-instruct open_instruct/grpo_fast.py: the mask under a module flag that
# is off as written: the branch is never taken, so this is clean.
from vllm import LLM

REPLAY = False


def build(model):
    kwargs = {"model": model, "logits_processors": ["my_project.Clamp"]}
    if REPLAY:
        kwargs["return_sampling_mask"] = True
    return LLM(**kwargs)
