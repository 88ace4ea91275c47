# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/vllm/vllm_engine.py: a shared default
# dict merged with `|`, where the right-hand side (the replay settings) wins.
from vllm import LLM, SamplingParams

DEFAULTS = {"model": "Qwen/Qwen3-4B", "logprobs_mode": "raw_logprobs", "enable_prefix_caching": True}
REPLAY_OVERRIDES = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}

llm = LLM(**(DEFAULTS | REPLAY_OVERRIDES))
params = SamplingParams(temperature=1.0, top_k=50, max_tokens=256)
print(llm.generate(["Hello"], params)[0].outputs[0].text)
