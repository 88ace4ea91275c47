from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen3-8B",
    reasoning_parser="qwen3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
sampling = SamplingParams(
    temperature=0.6,
    top_p=0.95,
    top_k=20,
    max_tokens=8192,
    thinking_token_budget=4096,
)


def run(conversations):
    return llm.chat(conversations, sampling)
