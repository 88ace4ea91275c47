# Imitates OpenDCAI/DataFlow dataflow/serving/local_model_llm_serving.py (LocalModelLLMServing_vllm) and its use by a pipeline
from .local_model_llm_serving import LocalModelLLMServing_vllm

__all__ = ["LocalModelLLMServing_vllm"]
