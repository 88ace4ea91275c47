#!/bin/zsh
CONFIGS=(
    "configs/replay.yaml"
)

for config in "${CONFIGS[@]}"; do
    echo "Running $config"
    python train_grpo.py --config $config
done
