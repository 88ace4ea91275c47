# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_engines/vllm/vllm_engine.py:
# `AsyncLLM.from_engine_args(AsyncEngineArgs(**kwargs))` after the environment helper ran.
from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

from rl.env import setup_envvars_for_vllm


class AsyncVLLMInferenceEngine:
    def __init__(self, model, enable_sleep_mode=False, **kwargs):
        setup_envvars_for_vllm(enable_sleep_mode)
        engine_args = AsyncEngineArgs(model=model, enable_sleep_mode=enable_sleep_mode, **kwargs)
        self.llm = AsyncLLM.from_engine_args(engine_args)


def create_engine():
    return AsyncVLLMInferenceEngine("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
