from vllm import LLM, SamplingParams

llm = LLM(
    "Qwen/Qwen3-4B",
    reasoning_parser="qwen3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
no_think = SamplingParams(temperature=0.7, top_k=20, thinking_token_budget=0)
outputs = llm.generate(["Solve 17 * 23."], no_think)
