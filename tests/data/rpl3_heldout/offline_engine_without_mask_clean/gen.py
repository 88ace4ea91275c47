from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen3-8B",
    reasoning_parser="qwen3",
    return_sampling_mask=False,
    logprobs_mode="processed_logprobs",
)
params = SamplingParams(
    temperature=0.7,
    top_k=1_000_000,
    repetition_penalty=1.3,
    logit_bias={151643: -5.0},
    thinking_token_budget=1024,
    max_tokens=4096,
)
print(llm.generate(["Prove that 17 is prime."], params))
