#!/usr/bin/env bash
# Shared exports for the replay runs. The 1 keeps prime-rl's V1 pin (setdefault "0") away.
export VLLM_USE_V2_MODEL_RUNNER=1
export HF_HUB_ENABLE_HF_TRANSFER=1
export WANDB_PROJECT=prime-replay
