# Imitates opendatalab/MinerU mineru/backend/vlm/utils.py (trimmed)
import os

import torch
from packaging import version


def enable_custom_logits_processors() -> bool:
    if not torch.cuda.is_available():
        return False
    major, minor = torch.cuda.get_device_capability()
    import vllm

    return version.parse(vllm.__version__) >= version.parse("0.10.1") and major * 10 + minor >= 80


def set_default_gpu_memory_utilization() -> float:
    return float(os.getenv("MINERU_VLLM_GPU_MEMORY_UTILIZATION", "0.5"))
