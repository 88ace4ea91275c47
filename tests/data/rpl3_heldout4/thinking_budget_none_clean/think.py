from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen3-4B",
    reasoning_parser="qwen3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
params = SamplingParams(temperature=0.7, top_k=20, thinking_token_budget=None)
print(llm.generate(["Solve 17 * 23."], params)[0].outputs[0].text)
