# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: `**overrides` forwarded
# to the engine, and the tree's one caller passes the wrong mode.
from vllm import LLM


def make_llm(model, **overrides):
    return LLM(model, return_sampling_mask=True, **overrides)


llm = make_llm("Qwen/Qwen3-8B", logprobs_mode="raw_logits")  # expect: RPL003
