# Imitates NVIDIA-NeMo/RL examples/run_grpo_math.py: the trainer calls the helper with a logits
# processor of its own, never naming the mask.
from myproj.engine import make_llm

llm = make_llm("Qwen/Qwen3-8B", logits_processors=["myproj.Clamp"])  # expect: RPL001
