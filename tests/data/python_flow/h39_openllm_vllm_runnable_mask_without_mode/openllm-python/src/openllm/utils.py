import torch


def device_count() -> int:
  return torch.cuda.device_count()
