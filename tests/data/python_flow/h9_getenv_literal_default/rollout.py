# Imitates hiyouga/EasyR1 style launch scripts reading engine knobs from the environment (os.getenv with a literal default)
import os

from vllm import LLM, SamplingParams

MODEL = os.getenv("ROLLOUT_MODEL", "Qwen/Qwen2.5-0.5B")
LOGPROBS_MODE = os.getenv("ROLLOUT_LOGPROBS_MODE", "raw_logprobs")  # expect: RPL003

llm = LLM(model=MODEL, return_sampling_mask=True, logprobs_mode=LOGPROBS_MODE)

params = SamplingParams(temperature=1.0, top_k=int(os.getenv("ROLLOUT_TOP_K", "32")), max_tokens=256)
print(llm.generate(["The derivative of x^3 is"], params)[0].outputs[0].text)
