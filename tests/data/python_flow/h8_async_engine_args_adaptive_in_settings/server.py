# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/vllm/vllm_engine.py: AsyncVLLMInferenceEngine built from AsyncEngineArgs
from settings import SPECULATIVE
from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


class AsyncVLLMInferenceEngine:
    def __init__(self, model, **kwargs):
        args = AsyncEngineArgs(model=model, speculative_config=SPECULATIVE, **kwargs)
        self.engine = AsyncLLM.from_engine_args(args)


engine = AsyncVLLMInferenceEngine("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
