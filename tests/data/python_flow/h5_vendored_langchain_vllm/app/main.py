# Imitates langchain-ai/langchain/docs/docs/integrations/llms/vllm.ipynb (the VLLM class with vllm_kwargs)
from app.llms import VLLM

llm = VLLM(
    model="mistralai/Mistral-7B-Instruct-v0.3",
    temperature=0.8,
    vllm_kwargs={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
)
print(llm.generate(["What is reinforcement learning?"]))
