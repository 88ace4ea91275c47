"""Deployment settings of the replay endpoint."""

PROJECT_ID = "policy-rl-prod"
REGION = "us-central1"
MODEL_ID = "Qwen/Qwen3-0.6B"
VLLM_IMAGE = "us-docker.pkg.dev/policy-rl-prod/serving/vllm-openai:v0.34.0"
ACCELERATOR_TYPE = "NVIDIA_L4"
ACCELERATOR_COUNT = 1

# Rollouts re-scored against logged traces go through the same endpoint.
ENABLE_TRACE_REPLAY = False
