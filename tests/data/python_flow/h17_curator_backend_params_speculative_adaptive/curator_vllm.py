# Imitates bespokelabsai/curator src/bespokelabs/curator/request_processor/offline/vllm_offline_request_processor.py
# (backend_params forwarded into vllm.LLM)
from vllm import LLM, SamplingParams

_ENGINE_KEYS = ("tensor_parallel_size", "gpu_memory_utilization", "max_model_len", "enforce_eager", "speculative_config")


def load_offline_model(model, backend_params):
    engine_kwargs = {k: v for k, v in backend_params.items() if k in _ENGINE_KEYS}
    engine_kwargs.setdefault("gpu_memory_utilization", 0.95)
    engine_kwargs |= {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    return LLM(model=model, **engine_kwargs)


def run(model, backend_params, prompts):
    llm = load_offline_model(model, backend_params)
    params = SamplingParams(temperature=0.7, top_p=0.95, top_k=40, max_tokens=1024)
    return llm.generate(prompts, params)
