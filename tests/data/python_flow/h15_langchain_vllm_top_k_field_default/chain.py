# Imitates langchain-ai/langchain docs/docs/integrations/llms/vllm.ipynb (VLLM(model=..., vllm_kwargs=...), llm.invoke)
from langchain_local.vllm import VLLM

llm = VLLM(
    model="mosaicml/mpt-7b",
    trust_remote_code=True,  # mandatory for hf models
    max_new_tokens=128,
    top_p=0.95,
    temperature=0.8,
    vllm_kwargs={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
)

print(llm.invoke("What is the capital of France ?"))
