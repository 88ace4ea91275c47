# Imitates huggingface/trl trl/trainer/grpo_trainer.py with a reference engine: two engines in one
# module, only one asking for replay; the other's logits processor is not a replay problem.
from vllm import LLM


def engines(model):
    policy_kwargs = {"model": model, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    reference_kwargs = {"model": model, "logits_processors": ["my_project.Clamp"]}
    return LLM(**policy_kwargs), LLM(**reference_kwargs)
