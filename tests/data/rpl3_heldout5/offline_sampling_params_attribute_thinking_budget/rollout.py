from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen3-4B",
    reasoning_parser="qwen3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
params = SamplingParams(temperature=0.6, top_k=20, max_tokens=4096)
params.thinking_token_budget = 1024
outputs = llm.generate(["Solve: 17 * 23 = ?"], params)
