# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py (the rollout package)
