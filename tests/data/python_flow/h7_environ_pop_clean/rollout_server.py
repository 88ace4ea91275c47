# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: a launcher that removes a
# stale VLLM_USE_V2_MODEL_RUNNER from its environment before the engine starts.
import os

from vllm import LLM, SamplingParams

for stale in ("VLLM_USE_V2_MODEL_RUNNER", "VLLM_ATTENTION_BACKEND"):
    os.environ.pop(stale, None)
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

llm = LLM("PrimeIntellect/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
print(llm.generate(["ping"], SamplingParams(temperature=1.0, top_k=8)))
