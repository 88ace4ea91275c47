# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: a helper that turns the
# mask on and forwards `**overrides` to the engine; its caller is in another module.
from vllm import LLM


def make_llm(model, **overrides):
    return LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs", **overrides)
