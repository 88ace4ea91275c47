# Imitates huggingface/trl trl/scripts/vllm_serve.py (as quick GRPO experiments copy it): the run's settings live in
# a types.SimpleNamespace instead of a parsed config.
from types import SimpleNamespace

from vllm import LLM, SamplingParams

cfg = SimpleNamespace(
    model="Qwen/Qwen2.5-Math-1.5B",
    max_new_tokens=1024,
    temperature=0.0,  # expect: RPL101
    top_k=50,
)

llm = LLM(cfg.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def rollout(prompts):
    params = SamplingParams(temperature=cfg.temperature, top_k=cfg.top_k, max_tokens=cfg.max_new_tokens)
    return llm.generate(prompts, params)
