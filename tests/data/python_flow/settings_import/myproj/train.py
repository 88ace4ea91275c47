# Imitates allenai/open-instruct open_instruct/grpo_fast.py: engine settings imported from
# another module of the tree, the mask turned on at the call.
from vllm import LLM

from myproj.settings import VLLM_ARGS

llm = LLM(**VLLM_ARGS, return_sampling_mask=True)
