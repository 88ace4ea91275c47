from vllm import LLM, SamplingParams

llm = LLM(
    "Qwen/Qwen3-8B",
    reasoning_parser="qwen3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
params = SamplingParams(temperature=0.6, top_k=20, max_tokens=8192, thinking_token_budget=-1)
outputs = llm.generate(["Prove that sqrt(2) is irrational."], params)
