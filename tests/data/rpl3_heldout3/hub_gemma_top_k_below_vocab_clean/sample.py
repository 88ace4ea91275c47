from vllm import LLM, SamplingParams

llm = LLM("google/gemma-3-27b-it", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_k=200_000, max_tokens=512)
outputs = llm.generate(["Write a haiku."], params)
