# Imitates sgl-project/sglang python/sglang/srt/entrypoints/engine.py used by an RL trainer: an
# engine class called LLM that is not vLLM's, built the same way: clean.
from functools import partial

from my_project.engines import LLM

make = partial(LLM, return_sampling_mask=True)
engine = make("Qwen/Qwen3-8B", logits_processors=["my_project.Clamp"])
