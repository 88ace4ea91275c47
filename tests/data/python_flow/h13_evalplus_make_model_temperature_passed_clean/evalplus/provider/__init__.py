# Imitates evalplus/evalplus evalplus/provider/__init__.py: make_model picks the decoder for a
# backend and hands it the run's settings, each with a default of its own.
from typing import Optional

from evalplus.provider.base import DecoderBase


def make_model(
    model: str,
    backend: str,
    dataset: str,
    batch_size: int = 1,
    temperature: float = 0.0,
    force_base_prompt: bool = False,
    instruction_prefix=None,
    response_prefix=None,
    dtype="bfloat16",
    trust_remote_code=False,
    tp=1,
    enable_prefix_caching=False,
    enable_chunked_prefill=False,
    base_url: Optional[str] = None,
    **kwargs,
) -> DecoderBase:
    if backend == "vllm":
        from evalplus.provider.vllm import VllmDecoder

        return VllmDecoder(
            name=model,
            batch_size=batch_size,
            temperature=temperature,
            dataset=dataset,
            force_base_prompt=force_base_prompt,
            tensor_parallel_size=tp,
            instruction_prefix=instruction_prefix,
            response_prefix=response_prefix,
            trust_remote_code=trust_remote_code,
            enable_prefix_caching=enable_prefix_caching,
            enable_chunked_prefill=enable_chunked_prefill,
            dtype=dtype,
        )
    raise ValueError(f"backend {backend} is not served by this fork")
