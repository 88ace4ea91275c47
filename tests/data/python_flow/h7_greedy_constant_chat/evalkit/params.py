# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: a module-level greedy
# SamplingParams reused by a chat evaluation run on the replay rollout engine.
from vllm import SamplingParams

GREEDY_EVAL = SamplingParams(temperature=0, top_k=1, max_tokens=512)  # expect: RPL101
