# Imitates THUDM/slime slime/backends/ rollout setup, where `args` is a `types.SimpleNamespace`
# handed to the engine as `vars(args)`.
from types import SimpleNamespace

from vllm import LLM

engine_args = SimpleNamespace(
    model="zai-org/GLM-4-9B-0414",
    tensor_parallel_size=4,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enable_batch_sharded_sampling=True,  # expect: RPL006
)

llm = LLM(**vars(engine_args))
