# Imitates IBM/ai-atlas-nexus src/ai_atlas_nexus/blocks/inference/__init__.py (trimmed)
from ai_atlas_nexus.blocks.inference.vllm import VLLMInferenceEngine

__all__ = ["VLLMInferenceEngine"]
