# Imitates allenai/open-instruct open_instruct/grpo_fast.py: engine settings imported from
# another module of the tree (`from myproj.settings import VLLM_ARGS`, `LLM(name, **VLLM_ARGS)`),
# with a logits processor of its own.
from vllm import LLM

from myproj.settings import VLLM_ARGS

llm = LLM("Qwen/Qwen3-8B", **VLLM_ARGS, logits_processors=["myproj.Clamp"])  # expect: RPL001
