from vllm import LLM, SamplingParams

llm = LLM("models/gemma-3-4b-it", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_k=262144)
outputs = llm.generate(["Describe the weather."], params)
