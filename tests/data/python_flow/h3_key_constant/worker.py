# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py, with the engine keys
# named by module constants (`kw[KEY] = ...`).
from vllm import LLM

MASK_KEY = "return_sampling_mask"
MODE_KEY = "logprobs_mode"


def create_engine(model_name):
    llm_kwargs = dict(model=model_name, enforce_eager=True, seed=0)
    llm_kwargs[MASK_KEY] = True
    llm_kwargs[MODE_KEY] = "processed_logits"  # expect: RPL003
    return LLM(**llm_kwargs)


llm = create_engine("meta-llama/Llama-3.2-1B-Instruct")
