# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: the engine's environment
# written from code, here with os.environ.update({...}) before the engine starts.
import os

from vllm import LLM, SamplingParams

os.environ.update(
    {
        "TOKENIZERS_PARALLELISM": "false",
        "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206
    }
)

llm = LLM("PrimeIntellect/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
print(llm.generate(["ping"], SamplingParams(temperature=1.0, top_k=8)))
