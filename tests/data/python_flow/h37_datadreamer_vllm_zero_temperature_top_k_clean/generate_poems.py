# Imitates datadreamer-dev/DataDreamer's documented use of src/llms/vllm.py (`with DataDreamer(...)`, `VLLM(model,
# **kwargs)`, `llm.run(prompts, ...)`). `temperature=0.0` is not sent as written: VLLM's `_run_batch` passes it through
# `_check_temperature_and_top_p(..., supports_zero_temperature=False, supports_zero_top_p=False)`, which turns it
# into temperature 1.0 with top_p 0.001, and `top_k=50` reaches SamplingParams through `**kwargs`.
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
    poems = llm.run(PROMPTS, max_new_tokens=256, temperature=0.0, top_k=50)
    for poem in poems:
        print(poem)
