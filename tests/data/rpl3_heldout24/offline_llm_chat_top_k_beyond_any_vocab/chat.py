from vllm import LLM, SamplingParams

llm = LLM(model="meta-llama/Llama-3.2-1B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")
sampling_params = SamplingParams(temperature=1.0, top_k=262144, max_tokens=256)

conversation = [
    {"role": "system", "content": "You are a helpful assistant"},
    {"role": "user", "content": "Hello"},
    {"role": "assistant", "content": "Hello! How can I assist you today?"},
    {"role": "user", "content": "Write an essay about the importance of higher education."},
]
outputs = llm.chat(conversation, sampling_params, use_tqdm=False)

for output in outputs:
    print(output.outputs[0].text)
