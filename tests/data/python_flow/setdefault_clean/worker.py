# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: defaults filled with
# setdefault before the engine starts; clean.
import vllm


def start(model):
    llm_kwargs = dict(model=model, return_sampling_mask=True)
    llm_kwargs.setdefault("logprobs_mode", "processed_logprobs")
    return vllm.LLM(**llm_kwargs)
