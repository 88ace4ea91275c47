from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen2.5-7B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")

params = SamplingParams(temperature=1.0, top_k=1 << 17, max_tokens=512, logprobs=0)

for out in llm.generate(["Explain KL regularization in PPO in two sentences."] * 8, params):
    print(out.outputs[0].text)
