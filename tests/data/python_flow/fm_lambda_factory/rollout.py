# Imitates NVIDIA/TensorRT-LLM tests/integration/defs/accuracy (an engine factory bound once and
# called per test: `functools.partial(LLM, feature=...)`) as RL rollout code writes it with
# vLLM: the factory is a lambda, built where the arguments are assembled.
import functools
from collections import defaultdict

from vllm import LLM


def vllm_args(model):
    return {"model": model, "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}  # expect: RPL003


def rollout(model, prompts):
    args = vllm_args(model)
    make_engine = lambda: LLM(**args)  # noqa: E731
    return make_engine().generate(prompts)


SHARDED = {"tensor_parallel_size": 2, "enable_batch_sharded_sampling": True}  # expect: RPL006
engines = defaultdict(lambda: LLM("Qwen/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs", **SHARDED))

build = lambda model: functools.partial(LLM, model, return_sampling_mask=True)(max_logprobs=-1)  # noqa: E731  # expect: RPL003
