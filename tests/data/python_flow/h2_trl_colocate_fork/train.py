# Imitates huggingface/trl examples/scripts/grpo.py: the entry script makes the config and the
# generator.
from config import GRPOConfig
from generation import VLLMGeneration

generation = VLLMGeneration("Qwen/Qwen3-8B", GRPOConfig(output_dir="runs/grpo"))
generation._init_vllm()
