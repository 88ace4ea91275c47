#!/usr/bin/env bash
# Registers the task definition and rolls the service onto it.
set -euo pipefail
cd "$(dirname "$0")"
REVISION=$(aws ecs register-task-definition --cli-input-json file://task-definition.json --query 'taskDefinition.revision' --output text)
aws ecs update-service --cluster "${CLUSTER:-rl-gpu}" --service vllm-replay-policy --task-definition "vllm-replay-policy:${REVISION}"
