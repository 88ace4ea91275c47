# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`create_vllm_engines`: one
# engine per entry, seeds apart) with the engines' settings in a literal list, one engine built
# for each in a comprehension: each entry is judged on its own.
from vllm import LLM

ENGINE_CONFIGS = [
    {"model": "Qwen/Qwen3-0.6B", "seed": 0, "logprobs_mode": "raw_logprobs"},  # expect: RPL003
    {"model": "Qwen/Qwen3-0.6B", "seed": 1, "logprobs_mode": "processed_logprobs", "tensor_parallel_size": 2, "enable_batch_sharded_sampling": True},  # expect: RPL006
]

engines = [LLM(**config, return_sampling_mask=True) for config in ENGINE_CONFIGS]
by_name = {name: LLM(model, return_sampling_mask=True, max_logprobs=-1) for name, model in [("policy", "Qwen/Qwen3-0.6B")]}  # expect: RPL003
