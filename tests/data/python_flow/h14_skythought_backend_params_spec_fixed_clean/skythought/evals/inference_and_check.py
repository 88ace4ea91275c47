# Imitates NovaSky-AI/SkyThought skythought/evals/inference_and_check.py (inference(): the vLLM backend branch)
from vllm import LLM, SamplingParams

from .entities import Backend, BackendParameters, SamplingParameters


def inference(model_id: str, backend: Backend, backend_params: BackendParameters, sampling_params: SamplingParameters, prompts):
    if backend == Backend.VLLM:
        llm = LLM(model=model_id, **backend_params.to_dict())
        return llm.generate(prompts, SamplingParams(**sampling_params.params))
    raise NotImplementedError(backend)
