# Imitates NVIDIA/TensorRT-LLM tests/integration/defs/accuracy (an engine factory bound once and
# called per test) as RL rollout code writes it with vLLM: a lambda's parameters are what its
# calls pass (here as vLLM wants them), and a lambda no one calls in the tree keeps them open.
from vllm import LLM

make_engine = lambda model, **kw: LLM(model, return_sampling_mask=True, **kw)  # noqa: E731
llm = make_engine("Qwen/Qwen3-0.6B", logprobs_mode="processed_logprobs")


def factory(mode):
    return lambda model: LLM(model, return_sampling_mask=True, logprobs_mode=mode)


handed_out = lambda **overrides: LLM("Qwen/Qwen3-0.6B", return_sampling_mask=True, **overrides)  # noqa: E731
