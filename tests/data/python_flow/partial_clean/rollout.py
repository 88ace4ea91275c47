# Imitates huggingface/trl trl/trainer/grpo_trainer.py: a partial with the replay keywords,
# called with the model only: clean.
from functools import partial

from vllm import LLM

make_engine = partial(LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm = make_engine("Qwen/Qwen3-8B", gpu_memory_utilization=0.5)
