from vllm import LLM, SamplingParams

llm = LLM(model="models/gemma3", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_k=200_000)
llm.generate(["Once upon a time"], params)
