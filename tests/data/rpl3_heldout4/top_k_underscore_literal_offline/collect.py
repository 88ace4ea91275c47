from vllm import LLM, SamplingParams

llm = LLM(model="mistralai/Mistral-7B-v0.3", return_sampling_mask=True, logprobs_mode="processed_logprobs")

sampling = SamplingParams(
    n=16,
    temperature=1.0,
    top_k=1_000_000,
)
llm.generate(["The capital of France is"], sampling)
