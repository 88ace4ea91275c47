# Imitates volcengine/verl verl/workers/rollout/vllm_rollout (a rollout package)
