# Imitates NovaSky-AI/SkyRL/skyrl-train/skyrl_train/inference_engines/vllm/vllm_engine.py (0.2, the engine class behind the Ray actor)
import os

import ray
import vllm


class BaseVLLMInferenceEngine:
    def __init__(self, *args, bundle_indices: list | None = None, **kwargs):
        noset_visible_devices = kwargs.pop("noset_visible_devices")
        if kwargs.get("distributed_executor_backend") == "ray":
            os.environ.pop("CUDA_VISIBLE_DEVICES", None)
        elif noset_visible_devices:
            os.environ["CUDA_VISIBLE_DEVICES"] = str(ray.get_gpu_ids()[0])
        self.tokenizer = kwargs.pop("tokenizer", None)
        self.llm = self._create_engine(*args, **kwargs)

    def _create_engine(self, *args, **kwargs):
        raise NotImplementedError


class VLLMInferenceEngine(BaseVLLMInferenceEngine):
    def _create_engine(self, *args, **kwargs):
        return vllm.LLM(*args, **kwargs)


VLLMRayActor = ray.remote(VLLMInferenceEngine)
