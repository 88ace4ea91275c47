from vllm import LLM, SamplingParams

SPEC = {
    "method": "ngram",
    "num_speculative_tokens": 3,
    "prompt_lookup_max": 4,
    "rejection_sample_method": "standard",
}

llm = LLM(
    model="Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config=SPEC,
)
outputs = llm.generate(["def fib(n):"], SamplingParams(temperature=1.0, top_k=50, max_tokens=256))
