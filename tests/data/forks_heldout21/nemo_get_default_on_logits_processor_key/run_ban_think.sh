set -x

uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B_ban_think.yaml \
    cluster.gpus_per_node=8
