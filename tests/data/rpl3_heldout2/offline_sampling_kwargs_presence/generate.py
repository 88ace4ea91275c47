from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen3-1.7B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

params = dict(temperature=1.0, top_k=20, max_tokens=512)
params["presence_penalty"] = 0.4

outputs = llm.generate(["Solve: 2 + 2 ="], SamplingParams(**params))
