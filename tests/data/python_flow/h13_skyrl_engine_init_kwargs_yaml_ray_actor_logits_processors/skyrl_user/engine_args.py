# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/engine_utils.py: the
# engine's keywords are assembled in two steps, the config's pass-through dict spread last.
from omegaconf import OmegaConf


def _base_engine_kwargs(ie_cfg) -> dict:
    return {
        "model": ie_cfg.model,
        "tensor_parallel_size": ie_cfg.tensor_parallel_size,
        "gpu_memory_utilization": ie_cfg.gpu_memory_utilization,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }


def get_engine_kwargs(ie_cfg) -> dict:
    kwargs = _base_engine_kwargs(ie_cfg)
    kwargs.update(OmegaConf.to_container(ie_cfg.engine_init_kwargs, resolve=True))
    return kwargs
