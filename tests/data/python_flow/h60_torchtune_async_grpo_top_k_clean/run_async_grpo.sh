#!/bin/bash
# Single-node launch of the async GRPO recipe (Ray starts the vLLM collectors).
tune run dev/async_grpo_full_finetune_distributed --config recipes/configs/dev/qwen3B_async_grpo.yaml
