# The caller of engine.make_llm (OpenRLHF's train_ppo_ray.py passes its arguments on).
from engine import make_llm

llm = make_llm("Qwen/Qwen3-8B", logprobs_mode="processed_logprobs")
