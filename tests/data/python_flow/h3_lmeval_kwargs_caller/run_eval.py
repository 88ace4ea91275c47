# Imitates EleutherAI/lm-evaluation-harness examples/ that build the vLLM model in Python.
from lm_eval_vllm.vllm_causallms import VLLM

lm = VLLM(
    pretrained="meta-llama/Llama-3.1-8B-Instruct",
    tensor_parallel_size=2,
    return_sampling_mask=True,  # expect: RPL003
    gpu_memory_utilization=0.85,
)
