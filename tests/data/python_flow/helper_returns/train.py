# Imitates allenai/open-instruct open_instruct/vllm_utils.py: the engine's keywords come from a
# helper, then one more keyword is added at the call.
from vllm import LLM


def vllm_args(model, tp=1):
    return {"model": model, "tensor_parallel_size": tp, "return_sampling_mask": True}  # expect: RPL003


llm = LLM(**vllm_args("Qwen/Qwen3-8B"), logits_processors=["my_project.Clamp"])  # expect: RPL001
