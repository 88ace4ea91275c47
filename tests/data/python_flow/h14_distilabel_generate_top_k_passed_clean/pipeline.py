# Imitates argilla-io/distilabel examples (a vLLM(...) with extra_kwargs, load(), then generate())
from distilabel_local.vllm_llm import vLLM

llm = vLLM(
    model="Qwen/Qwen2.5-1.5B-Instruct",
    extra_kwargs={
        "tensor_parallel_size": 1,
        "max_model_len": 4096,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    },
)
llm.load()
print(llm.generate(["Write a haiku about replay."], temperature=0.8, top_k=50))
