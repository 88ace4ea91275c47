# Imitates zjunlp/EasyEdit steer/models/model_wrapper.py (the wrapper keeps the vLLM engine as VLLM_model);
# the user's edit builds it lazily in a cached_property with replay on.
from functools import cached_property

from vllm import LLM


class BaseModelWrapper:
    def __init__(self, model_name_or_path, tensor_parallel_size=1):
        self.model_name_or_path = model_name_or_path
        self.tensor_parallel_size = tensor_parallel_size

    @cached_property
    def VLLM_model(self):
        return LLM(
            model=self.model_name_or_path,
            enforce_eager=True,
            tensor_parallel_size=self.tensor_parallel_size,
            dtype="bfloat16",
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
