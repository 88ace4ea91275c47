# Imitates vllm-project/vllm examples/offline_inference/rlhf_utils.py / rlhf.py, where the engine
# actor receives `LLM(*args, **kwargs)` and the driver spells the arguments out.
from vllm import LLM


class MyLLM(LLM):
    def __init__(self, *args, **kwargs):
        kwargs["enforce_eager"] = True
        super().__init__(*args, **kwargs)


ARGS = ("facebook/opt-125m",)
llm = MyLLM(
    *ARGS,
    tensor_parallel_size=1,
    return_sampling_mask=True,  # expect: RPL003
    distributed_executor_backend="ray",
)
