# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/orchestrator/engine.py (a collector spreading the shared defaults).
from vllm import LLM, SamplingParams

from proj.engine_defaults import ENGINE_BASE


def collect(prompts):
    llm = LLM(**{**ENGINE_BASE, "return_sampling_mask": True})
    return llm.generate(prompts, SamplingParams(temperature=1.0, top_k=16))
