# Imitates TIGER-AI-Lab/AceCoder data/inference/vllm_inference.py (vllm_inference(..., sampling_params=dict,
# additional_engine_param=dict) -> LLM(..., **additional_engine_param)).
from typing import Dict, List, Optional

import torch
from vllm import LLM, SamplingParams


def vllm_inference(
    huggingface_model_path: str,
    prompts: List[str],
    sampling_params: Dict = None,
    trust_remote_code: bool = False,
    seperate_tokenizer_path: Optional[str] = None,
    additional_engine_param: Optional[Dict] = None,
):
    if sampling_params is None:
        sampling_params = {"max_tokens": 1024}
    elif "max_new_tokens" in sampling_params:
        sampling_params["max_tokens"] = sampling_params.pop("max_new_tokens")
    elif "max_tokens" not in sampling_params:
        sampling_params["max_tokens"] = 1024
    sampling_params = SamplingParams(**sampling_params)
    if not additional_engine_param:
        llm = LLM(
            model=huggingface_model_path,
            tokenizer=seperate_tokenizer_path,
            tensor_parallel_size=torch.cuda.device_count(),
            trust_remote_code=trust_remote_code,
        )
    else:
        llm = LLM(
            model=huggingface_model_path,
            tokenizer=seperate_tokenizer_path,
            tensor_parallel_size=torch.cuda.device_count(),
            trust_remote_code=trust_remote_code,
            **additional_engine_param,
        )
    return [o.outputs[0].text for o in llm.generate(prompts=prompts, sampling_params=sampling_params)]
