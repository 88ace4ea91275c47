set -x
for seed in 42 43; do
  uv run python examples/run_grpo.py \
    --config examples/configs/grpo_math_1B.yaml \
    grpo.seed=$seed \
    policy.generation.top_k=-1
done
