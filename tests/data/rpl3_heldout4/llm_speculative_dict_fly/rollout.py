from vllm import LLM, SamplingParams

llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={
        "method": "eagle",
        "model": "yuhuili/EAGLE-LLaMA3.1-Instruct-8B",
        "num_speculative_tokens": 4,
        "rejection_sample_method": "fly",
    },
)
outputs = llm.generate(["Hello"], SamplingParams(temperature=1.0, top_k=50))
