#!/usr/bin/env bash
set -euo pipefail
# Production rollouts: values-prod.yaml replaces the chart's extraArgs list.
helm upgrade --install policy ./chart \
  -f chart/values.yaml \
  -f chart/values-prod.yaml \
  --namespace rollout --create-namespace
