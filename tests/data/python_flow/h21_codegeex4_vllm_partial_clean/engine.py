# Imitates THUDM/CodeGeeX4 README's vLLM section; the user binds the engine options once with partial.
from functools import partial

from vllm import LLM

make_llm = partial(
    LLM,
    tensor_parallel_size=1,
    max_model_len=8192,
    trust_remote_code=True,
    enforce_eager=True,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
