#!/usr/bin/env bash
# Installs the policy engine with the vLLM production stack chart.
set -euo pipefail
helm repo add vllm https://vllm-project.github.io/production-stack
helm upgrade --install policy vllm/vllm-stack -f helm/values-replay.yaml
kubectl rollout status deployment/policy-policy-deployment-vllm --timeout=20m
