# Imitates huggingface/trl trl/trainer/grpo_trainer.py (colocate mode builds `LLM(...)` itself):
# a partial holds the replay keywords, the call adds a logits processor.
import functools

from vllm import LLM

make_engine = functools.partial(LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm = make_engine("Qwen/Qwen3-8B", logits_processors=["my_project.Clamp"])  # expect: RPL001
