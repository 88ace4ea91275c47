vllm serve --config rollout.yaml
