# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: greedy generate-until params kept as a module constant
from vllm import SamplingParams

GREEDY = SamplingParams(temperature=0.0, max_tokens=256)  # expect: RPL101 "temperature > 0"  # expect: RPL102
SAMPLED = SamplingParams(temperature=1.0, top_k=50, max_tokens=256)
