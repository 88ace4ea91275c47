#!/usr/bin/env bash
# Imitates meta-llama/llama-stack docs/source/distributions/k8s/apply.sh (the vLLM deployment applied with
# kubectl, the secret for the Hugging Face token first).
set -euo pipefail

export HF_TOKEN=${HF_TOKEN:-}

kubectl create secret generic hf-token-secret --from-literal=token="$HF_TOKEN" --dry-run=client -o yaml | kubectl apply -f -
kubectl apply -f vllm-k8s.yaml
