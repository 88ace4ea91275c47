# Imitates opendatalab/MinerU mineru/backend/vlm/vlm_analyze.py (ModelSingleton.get_model, vllm-engine branch)
import os
import threading
import time

from loguru import logger
from mineru_vl_utils import MinerUClient

from .utils import enable_custom_logits_processors, set_default_gpu_memory_utilization


class ModelSingleton:
    _instance = None
    _models = {}
    _lock = threading.RLock()

    def __new__(cls, *args, **kwargs):
        with cls._lock:
            if cls._instance is None:
                cls._instance = super().__new__(cls)
        return cls._instance

    def get_model(self, backend: str, model_path: str | None, server_url: str | None, **kwargs) -> MinerUClient:
        key = (backend, model_path, server_url)
        with self._lock:
            if key not in self._models:
                start_time = time.time()
                vllm_llm = None
                if not model_path:
                    model_path = "opendatalab/MinerU2.5-2509-1.2B"
                if os.getenv("OMP_NUM_THREADS") is None:
                    os.environ["OMP_NUM_THREADS"] = "1"

                if backend == "vllm-engine":
                    try:
                        import vllm
                    except ImportError:
                        raise ImportError("Please install vllm to use the vllm-engine backend.")
                    if "gpu_memory_utilization" not in kwargs:
                        kwargs["gpu_memory_utilization"] = set_default_gpu_memory_utilization()
                    if "model" not in kwargs:
                        kwargs["model"] = model_path
                    if "max_model_len" not in kwargs:
                        kwargs["max_model_len"] = 2048
                    if enable_custom_logits_processors() and ("logits_processors" not in kwargs):
                        from mineru_vl_utils import MinerULogitsProcessor

                        kwargs["logits_processors"] = [MinerULogitsProcessor]
                    # 使用kwargs为 vllm初始化参数
                    vllm_llm = vllm.LLM(**kwargs)
                else:
                    raise ValueError(f"Unsupported backend in this trimmed copy: {backend}")
                self._models[key] = MinerUClient(backend=backend, vllm_llm=vllm_llm, server_url=server_url)
                logger.info(f"get {backend} predictor cost: {round(time.time() - start_time, 2)}s")
        return self._models[key]


def doc_analyze(pdf_bytes, backend="transformers", model_path=None, server_url=None, **kwargs):
    predictor = ModelSingleton().get_model(backend, model_path, server_url, **kwargs)
    images = [pdf_bytes]
    results = predictor.batch_two_step_extract(images=images)
    return {"pdf_info": []}, results
