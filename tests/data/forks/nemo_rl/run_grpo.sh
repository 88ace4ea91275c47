#!/bin/bash
# Imitates NVIDIA-NeMo/RL README.md's GRPO quick start @ 7ea279a.
uv run examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml policy.model_name=Qwen/Qwen3-1.7B
