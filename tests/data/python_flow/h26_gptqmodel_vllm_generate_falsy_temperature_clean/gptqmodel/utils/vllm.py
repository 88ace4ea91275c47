# Imitates ModelCloud/GPTQModel gptqmodel/utils/vllm.py (convert_hf_params_to_vllm writes only truthy HF keys onto a
# default SamplingParams(); load_model_by_vllm(model, **kwargs) -> LLM(model=model, **kwargs); vllm_generate).
from typing import Any, Dict

try:
    from vllm import LLM, SamplingParams

    VLLM_AVAILABLE = True
except ImportError:
    VLLM_AVAILABLE = False

VLLM_INSTALL_HINT = "vLLM not installed. Please install via `pip install -U vllm`."


def convert_hf_params_to_vllm(hf_params: Dict[str, Any]):
    if not VLLM_AVAILABLE:
        raise ValueError(VLLM_INSTALL_HINT)
    sampling_params = SamplingParams()

    if hf_params.get("num_return_sequences", None):
        sampling_params.n = hf_params.get("num_return_sequences")

    if hf_params.get("repetition_penalty", None):
        sampling_params.repetition_penalty = hf_params.get("repetition_penalty")

    if hf_params.get("temperature", None):
        sampling_params.temperature = hf_params.get("temperature")

    if hf_params.get("top_k", None):
        sampling_params.top_k = hf_params.get("top_k")

    if hf_params.get("top_p", None):
        sampling_params.top_p = hf_params.get("top_p")

    if hf_params.get("max_length", None):
        sampling_params.max_tokens = hf_params.get("max_length")

    return sampling_params


def load_model_by_vllm(model, **kwargs):
    if not VLLM_AVAILABLE:
        raise ValueError(VLLM_INSTALL_HINT)
    model = LLM(
        model=model,
        **kwargs,
    )
    return model


def vllm_generate(model, **kwargs):
    if not VLLM_AVAILABLE:
        raise ValueError(VLLM_INSTALL_HINT)
    prompts = kwargs.pop("prompts", None) or kwargs.pop("input_ids", None)
    if prompts is None:
        raise ValueError("Either prompts or input_ids must be provided")

    sampling_params = kwargs.get("sampling_params")
    if not isinstance(sampling_params, SamplingParams):
        hf_params = {
            key: kwargs.get(key)
            for key in ["num_return_sequences", "repetition_penalty", "temperature", "top_k", "top_p", "max_length"]
        }
        sampling_params = convert_hf_params_to_vllm({k: v for k, v in hf_params.items() if v is not None})

    req_results = model.generate(prompts=prompts, sampling_params=sampling_params)
    return [result.outputs[0].text for result in req_results]
