from vllm import LLM, SamplingParams

UNLIMITED = -1

llm = LLM(model="Qwen/Qwen3-4B", reasoning_parser="qwen3", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=0.6, top_k=20, max_tokens=8192, thinking_token_budget=UNLIMITED)
outputs = llm.generate(["How many primes are below 100?"], params)
