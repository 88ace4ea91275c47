from vllm import LLM, SamplingParams

llm = LLM(
    model="models/tiny-llama-sft",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
params = SamplingParams(
    temperature=1.0,
    top_k=50000,
    max_tokens=256,
)
print(llm.generate(["2+2="], params))
