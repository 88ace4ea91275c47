# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: greedy decoding
# params for evaluation kept in a module of their own.
from vllm import SamplingParams

GREEDY_PARAMS = SamplingParams(temperature=0.0, top_k=1, max_tokens=512)  # expect: RPL101
