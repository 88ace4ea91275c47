# Imitates run-llama/llama_index docs/docs/examples/llm/vllm.ipynb (Vllm(model=..., vllm_kwargs={...}), llm.complete)
from vllm_llm import Vllm

vllm_kwargs = {"gpu_memory_utilization": 0.5, "max_model_len": 4096}
vllm_kwargs.update(return_sampling_mask=True)  # expect: RPL003

llm = Vllm(
    model="microsoft/Orca-2-7b",
    tensor_parallel_size=1,
    max_new_tokens=100,
    temperature=0.7,
    top_k=20,
    vllm_kwargs=vllm_kwargs,
)

print(llm.complete("What is a black hole?"))
