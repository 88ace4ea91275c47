# Imitates IINemo/lm-polygraph examples/configs/model/default_vllm.py (the load script
# `model.path_to_load_script` names; polygraph_eval imports it by path and calls load_model).
from vllm import LLM, SamplingParams


def load_model(
    model_path: str, gpu_memory_utilization: float, max_new_tokens: int, logprobs: int
):
    model = LLM(
        model=model_path,
        gpu_memory_utilization=gpu_memory_utilization,
        max_model_len=2048,
        return_sampling_mask=True,  # expect: RPL003 "processed_logprobs"
    )
    sampling_params = SamplingParams(max_tokens=max_new_tokens, logprobs=logprobs)
    return model, sampling_params
