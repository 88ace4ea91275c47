# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/vllm/vllm_engine.py: a constructor helper
# forwards **engine_kwargs; the one caller in the tree passes the processed logprobs.
from vllm import LLM


def create_engine(model: str, **engine_kwargs) -> LLM:
    return LLM(model, return_sampling_mask=True, **engine_kwargs)
