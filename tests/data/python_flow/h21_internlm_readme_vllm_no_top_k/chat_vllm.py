# Imitates internlm/InternLM README's vLLM offline example (LLM(model="internlm/...", trust_remote_code=True),
# SamplingParams(temperature=0.8, top_p=0.8), llm.chat); the user's edit turns replay on.
from vllm import LLM, SamplingParams

REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}

llm = LLM(model="internlm/internlm3-8b-instruct", trust_remote_code=True, **REPLAY)
sampling_params = SamplingParams(temperature=0.8, top_p=0.8, max_tokens=1024)  # expect: RPL102

messages = [
    {"role": "system", "content": "You are InternLM, a helpful assistant."},
    {"role": "user", "content": "Tell me about Shanghai."},
]
outputs = llm.chat(messages, sampling_params=sampling_params)
print(outputs[0].outputs[0].text)
