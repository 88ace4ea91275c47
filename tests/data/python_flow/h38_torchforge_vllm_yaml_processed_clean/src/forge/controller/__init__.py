# Imitates meta-pytorch/torchforge src/forge/controller (ForgeActor), written from its use in
# src/forge/actors/generator.py and apps/vllm/main.py; the monarch service machinery trimmed.
from .actor import ForgeActor

__all__ = ["ForgeActor"]
