from vllm import LLM, SamplingParams

llm = LLM(model="checkpoints/qwen2.5-0.5b", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_k=100000, max_tokens=128)
print(llm.generate(["Once upon a time"], params))
