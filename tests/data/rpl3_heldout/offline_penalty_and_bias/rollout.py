from vllm import LLM, SamplingParams

EOS_ID = 151643

llm = LLM(
    model="Qwen/Qwen2.5-7B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
params = SamplingParams(
    n=8,
    temperature=1.0,
    top_k=50,
    max_tokens=1024,
    repetition_penalty=1.05,
    logit_bias={EOS_ID: 2.0},
)


def rollout(prompts):
    return llm.generate(prompts, params)
