# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/ (a package of the tree).
