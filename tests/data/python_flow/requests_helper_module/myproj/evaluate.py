# Imitates volcengine/verl verl/trainer/main_generation.py: an engine with replay, the params of
# its requests made in another module of the tree.
from vllm import LLM

from myproj.sampling import eval_params

llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
outputs = llm.generate(["hi"], eval_params())
