# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (`create_vllm_engines`: one
# engine per entry): every entry asks for replay as vLLM wants it; entries read at run time
# leave their engines open; a comprehension's name is its own, not the module's `config`.
import json
import sys

from vllm import LLM

ENGINE_CONFIGS = [
    {"model": "Qwen/Qwen3-0.6B", "seed": 0, "logprobs_mode": "processed_logprobs"},
    {"model": "Qwen/Qwen3-0.6B", "seed": 1, "logprobs_mode": "processed_logprobs"},
]
config = {"logprobs_mode": "raw_logprobs"}

engines = [LLM(**config, return_sampling_mask=True) for config in ENGINE_CONFIGS]
loaded = [LLM(**config, return_sampling_mask=True) for config in json.load(open(sys.argv[1]))]
