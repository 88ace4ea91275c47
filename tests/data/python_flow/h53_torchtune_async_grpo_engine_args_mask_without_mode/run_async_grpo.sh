#!/bin/bash
# Launch the async GRPO controller (recipes/dev/async_grpo.md); it starts every other worker itself.
tune run recipes/dev/async_grpo_full_finetune_distributed.py --config recipes/configs/dev/qwen3B_async_grpo.yaml
