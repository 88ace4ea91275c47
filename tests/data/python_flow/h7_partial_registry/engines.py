# Imitates modelscope/ms-swift swift/llm/infer/infer_engine/__init__.py (engine constructors kept in a registry dict of
# functools.partial objects, looked up by name and called with more keyword arguments).
from functools import partial

from vllm import LLM

ENGINE_REGISTRY = {
    "replay": partial(LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs"),
    "plain": partial(LLM, enforce_eager=True),
}


def build(kind: str, model: str, **kwargs) -> LLM:
    return ENGINE_REGISTRY[kind](model, **kwargs)


llm = build("replay", "Qwen/Qwen2.5-7B-Instruct", logits_processors=["swift.plugin:ThinkingClamp"])  # expect: RPL001
