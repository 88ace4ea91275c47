# Sampling knobs shared by the VL rollout workers.
MAX_NEW_TOKENS = 4096
# "no truncation": the whole Qwen2.5-VL vocabulary (checkpoints/policy-vl/config.json)
TOP_K = 152064
