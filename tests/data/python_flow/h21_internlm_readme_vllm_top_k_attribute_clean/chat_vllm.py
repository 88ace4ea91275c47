# Imitates internlm/InternLM README's vLLM offline example; the user's edit turns replay on and sets
# top_k on the request object before it is sent (clean).
from vllm import LLM, SamplingParams

REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}

llm = LLM(model="internlm/internlm3-8b-instruct", trust_remote_code=True, **REPLAY)
sampling_params = SamplingParams(temperature=0.8, top_p=0.8, max_tokens=1024)
sampling_params.top_k = 50

messages = [
    {"role": "system", "content": "You are InternLM, a helpful assistant."},
    {"role": "user", "content": "Tell me about Shanghai."},
]
outputs = llm.chat(messages, sampling_params=sampling_params)
print(outputs[0].outputs[0].text)
