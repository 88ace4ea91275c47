# Imitates run-llama/llama_index docs/docs/examples/llm/vllm.ipynb (Vllm(model=..., vllm_kwargs={...}), llm.complete)
from vllm_llm import Vllm

llm = Vllm(
    model="microsoft/Orca-2-7b",
    tensor_parallel_size=1,
    max_new_tokens=100,
    temperature=0.7,
    top_k=20,
    presence_penalty=0.5,  # expect: RPL302
    vllm_kwargs={"gpu_memory_utilization": 0.5, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
)

print(llm.complete("What is a black hole?"))
