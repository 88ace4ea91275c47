set -x

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    cluster.gpus_per_node=8 \
    logger.wandb_enabled=false
