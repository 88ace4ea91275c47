# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: `**overrides` forwarded
# to the engine and no caller in the tree: what the caller passes may set the mode, so no
# finding on an absent setting.
from vllm import LLM


def make_llm(model, **overrides):
    return LLM(model, return_sampling_mask=True, **overrides)
