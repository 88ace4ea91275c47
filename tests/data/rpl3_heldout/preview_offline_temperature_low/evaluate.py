from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")

eval_params = SamplingParams(
    temperature=0.005,
    top_k=50,
    max_tokens=1024,
)


def evaluate(prompts):
    return llm.generate(prompts, eval_params)
