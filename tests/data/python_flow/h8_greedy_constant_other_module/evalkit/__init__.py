# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (a package of eval helpers)
