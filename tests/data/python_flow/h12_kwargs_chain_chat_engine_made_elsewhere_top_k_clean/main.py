# Imitates sail-sg/oat oat/interface.py (the driver: builds the engine, then runs the rollouts).
from engine import build_llm
from rollout import rollout_group

llm = build_llm("Qwen/Qwen3-4B", gpu_memory_utilization=0.8, max_model_len=8192)
conversations = [[{"role": "user", "content": "Solve: 3x + 5 = 20."}]]
results = rollout_group(llm, conversations, 8, temperature=0.9, top_p=0.95, top_k=40, max_tokens=512)
