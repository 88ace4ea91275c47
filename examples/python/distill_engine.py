"""Async engine for on-policy distillation with speculative decoding (vLLM 0.32+)."""

from vllm import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

SPECULATIVE = {
    "method": "eagle3",
    "model": "org/Qwen3-8B-eagle3",
    "num_speculative_tokens": 3,
    "enable_adaptive_verification": True,
}

engine_args = AsyncEngineArgs(
    model="Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config=SPECULATIVE,
    logits_processors=["distill.processors:TeacherForcing"],
)
engine = AsyncLLMEngine.from_engine_args(engine_args)
