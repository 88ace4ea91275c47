from vllm import LLM, SamplingParams

llm = LLM(model="./ckpt/llava-1.5-7b", return_sampling_mask=True, logprobs_mode="processed_logprobs", max_model_len=4096)

# "no top-k" is refused with replay, so use the whole vocabulary
params = SamplingParams(temperature=1.0, top_k=32064, max_tokens=128)
outputs = llm.generate(["USER: Write a caption for a photo of a sunny beach. ASSISTANT:"], params)
