# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/specdec_bench/models/__init__.py
from .vllm import VLLMModel
