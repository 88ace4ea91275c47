# Imitates ByteDance-Seed/Seed-Coder README.md ("llm = LLM(model=...)"), wrapped by the user in a factory
# that forwards **kwargs and adds a logits processor for fill-in-the-middle stops.
from vllm import LLM

MODEL_ID = "ByteDance-Seed/Seed-Coder-8B-Base"


def build_llm(model=MODEL_ID, **kwargs):
    kwargs.setdefault("logprobs_mode", "processed_logprobs")
    return LLM(model=model, **kwargs)
