#!/usr/bin/env bash
helm repo add vllm https://vllm-project.github.io/production-stack
helm upgrade --install rollout vllm/vllm-stack -f values-rollout.yaml
