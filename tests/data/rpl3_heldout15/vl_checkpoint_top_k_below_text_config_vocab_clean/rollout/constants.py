# Sampling knobs shared by the VL rollout workers.
MAX_NEW_TOKENS = 4096
# wide but bounded: below the 152064 tokens of checkpoints/policy-vl/config.json
TOP_K = 131072
