# Imitates allenai/open-instruct open_instruct/grpo_fast.py: engine settings imported from
# another module of the tree, nothing added that replay refuses: clean.
from vllm import LLM

from myproj.settings import VLLM_ARGS

llm = LLM("Qwen/Qwen3-8B", **VLLM_ARGS, gpu_memory_utilization=0.8)
