# Imitates datadreamer-dev/DataDreamer's documented use of src/llms/vllm.py (`with DataDreamer(...)`, `VLLM(model,
# **kwargs)`, `llm.run(prompts, ...)`), with the replay keywords passed through VLLM's keywords to vllm.LLM.
from datadreamer import DataDreamer
from datadreamer.llms import VLLM

PROMPTS = [
    "Write a short poem about the sea.",
    "Write a short poem about a lighthouse.",
]

with DataDreamer("./output"):
    llm = VLLM(
        "Qwen/Qwen2.5-0.5B-Instruct",
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    poems = llm.run(PROMPTS, max_new_tokens=256, temperature=0.7, top_p=0.9)
    for poem in poems:
        print(poem)
