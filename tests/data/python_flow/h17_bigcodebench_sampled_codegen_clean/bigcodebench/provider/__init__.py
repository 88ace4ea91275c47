# Imitates bigcode-project/bigcodebench bigcodebench/provider/__init__.py (make_model)
from bigcodebench.provider.base import DecoderBase


def make_model(
    model: str,
    backend: str,
    subset: str,
    split: str,
    lora_path: str = None,
    temperature: float = 0.0,
    max_new_tokens: int = 1280,
    tp: int = 1,
    trust_remote_code: bool = False,
) -> DecoderBase:
    if backend == "vllm":
        from bigcodebench.provider.vllm import VllmDecoder

        return VllmDecoder(
            name=model,
            subset=subset,
            split=split,
            lora_path=lora_path,
            temperature=temperature,
            max_new_tokens=max_new_tokens,
            tp=tp,
            trust_remote_code=trust_remote_code,
        )
    raise ValueError(f"unknown backend {backend}")
