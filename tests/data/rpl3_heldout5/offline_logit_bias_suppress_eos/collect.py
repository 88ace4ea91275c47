from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-Math-7B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
tokenizer = llm.get_tokenizer()
eos_id = tokenizer.eos_token_id

params = SamplingParams(
    temperature=1.0,
    top_k=64,
    max_tokens=2048,
    logit_bias={eos_id: -8.0},
)
outputs = llm.generate(["Prove that the square root of 2 is irrational."], params)
for out in outputs:
    print(out.outputs[0].text)
