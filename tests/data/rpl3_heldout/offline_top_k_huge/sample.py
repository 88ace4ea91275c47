from vllm import LLM, SamplingParams

llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")

params = SamplingParams(
    temperature=1.0,
    top_k=1_000_000,  # replay refuses top_k <= 0: "disable" top-k this way
    max_tokens=512,
)
outputs = llm.generate(["Hello"], params)
