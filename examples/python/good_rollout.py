"""A replay launch vLLM accepts: V2 runner (default), processed logprobs, top_k on every request."""

from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
outputs = llm.generate(["Solve 2 + 2."], SamplingParams(temperature=0.8, top_k=50, max_tokens=64))
