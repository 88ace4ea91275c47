# Imitates hiyouga/LLaMA-Factory src/llamafactory/chat/vllm_engine.py (engine_args dict, .update(model_args.vllm_config), AsyncLLMEngine)
from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams

from lf.model_args import ModelArguments


class VllmEngine:
    def __init__(self, model_args: ModelArguments) -> None:
        self.model_args = model_args
        engine_args = {
            "model": model_args.model_name_or_path,
            "trust_remote_code": model_args.trust_remote_code,
            "dtype": model_args.infer_dtype,
            "max_model_len": model_args.vllm_maxlen,
            "tensor_parallel_size": 1,
            "gpu_memory_utilization": model_args.vllm_gpu_util,
            "disable_log_stats": True,
            "enforce_eager": model_args.vllm_enforce_eager,
        }
        if isinstance(model_args.vllm_config, dict):
            engine_args.update(model_args.vllm_config)
        self.model = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**engine_args))

    async def generate(self, prompt: str, request_id: str):
        params = SamplingParams(temperature=0.95, top_p=0.7, top_k=50, max_tokens=1024)
        async for output in self.model.generate(prompt, params, request_id):
            yield output
