from vllm import LLM, SamplingParams

llm = LLM("./models/tinyllama", return_sampling_mask=True, logprobs_mode="processed_logprobs")
VOCAB = 32000
outputs = llm.generate(["Once upon a time"], SamplingParams(temperature=1.0, top_k=VOCAB))
