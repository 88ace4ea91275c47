#!/bin/bash
# GRPO with sampling distribution replay (this fork's VllmGenerationWorkerImpl._create_engine turns it on)
uv run examples/run_grpo.py \
    --config examples/configs/recipes/llm/grpo-qwen2.5-math-1.5b-instruct-1n8g-replay.yaml \
    cluster.num_nodes=1
