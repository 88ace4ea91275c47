# Imitates alibaba/ROLL roll/distributed/strategy/vllm_strategy.py (VllmStrategy.initialize)
import copy
import os

from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


class VllmStrategy:
    def __init__(self, model_name_or_path, strategy_config, seed=42):
        self.model_name_or_path = model_name_or_path
        self.strategy_config = strategy_config
        self.seed = seed

    async def initialize(self):
        vllm_config = copy.deepcopy(self.strategy_config)
        # Same trick as VLLM_USE_V1, but only when the strategy config names the runner at all.
        if (runner := vllm_config.pop("VLLM_USE_V2_MODEL_RUNNER", None)) is not None:
            os.environ["VLLM_USE_V2_MODEL_RUNNER"] = str(runner)
        self.sleep_level = vllm_config.pop("sleep_level", 1)
        os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
        vllm_config.update(
            {
                "model": self.model_name_or_path,
                "dtype": "bfloat16",
                "trust_remote_code": True,
                "seed": self.seed,
                "disable_custom_all_reduce": True,
            }
        )
        self.model = AsyncLLM.from_engine_args(AsyncEngineArgs(**vllm_config))
