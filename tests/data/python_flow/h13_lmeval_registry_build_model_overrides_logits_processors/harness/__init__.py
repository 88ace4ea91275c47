# Imitates EleutherAI/lm-evaluation-harness lm_eval/__init__.py (package marker).
