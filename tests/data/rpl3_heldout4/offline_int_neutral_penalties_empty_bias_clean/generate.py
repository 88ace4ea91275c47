from vllm import LLM, SamplingParams

llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

params = SamplingParams(
    temperature=0.9,
    top_k=40,
    repetition_penalty=1,
    presence_penalty=0,
    frequency_penalty=0.0,
    logit_bias={},
    n=8,
)
outputs = llm.generate(["Write a haiku about rain."], params)
