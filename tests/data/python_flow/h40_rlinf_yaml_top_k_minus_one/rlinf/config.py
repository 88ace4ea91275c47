import torch
from omegaconf import OmegaConf

OmegaConf.register_new_resolver("subtract", lambda a, b: a - b, replace=True)
OmegaConf.register_new_resolver("not", lambda x: not x, replace=True)


def torch_dtype_from_precision(precision):
    if precision in ["bf16", "bf16-mixed"]:
        return torch.bfloat16
    elif precision in [16, "16", "fp16", "16-mixed"]:
        return torch.float16
    elif precision in [32, "32", "fp32", "32-true"]:
        return torch.float32
    raise ValueError(f"Could not parse the precision of `{precision}` to a valid torch.dtype")


def validate_cfg(cfg):
    assert cfg.rollout.rollout_backend in ["sglang", "vllm"], (
        f"rollout_backend {cfg.rollout.rollout_backend} is not supported."
    )
    return cfg
