# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py (update_sampling_params): fields set on the params after construction
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen2.5-0.5B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, max_tokens=256)
params.top_k = 50
llm.generate(["Once upon a time"], params)
