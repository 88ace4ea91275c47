# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py:
# the actor writes vLLM's variables into os.environ in __init__, then builds its engine there.
import os

import ray
from vllm import LLM

from rollout.config import InferenceEngineConfig


@ray.remote
class VLLMServerActor:
    def __init__(self, cfg: InferenceEngineConfig, rank: int):
        os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"
        if cfg.legacy_runner:
            os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
        self.rank = rank
        self.llm = LLM(
            model=cfg.model,
            gpu_memory_utilization=cfg.gpu_memory_utilization,
            enable_prefix_caching=cfg.enable_prefix_caching,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params)
