# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: `**overrides` forwarded
# to the engine and no caller in the tree: like a script's "$@", judged as written, and the
# message says what it rests on.
from vllm import LLM


def make_llm(model, **overrides):
    return LLM(model, return_sampling_mask=True, **overrides)  # expect: RPL003 "when the caller's `**overrides` does not set it"
