#!/bin/bash
# Imitates Alibaba-NLP/DeepResearch inference/run_react_infer.sh (loads ../.env, starts `vllm serve $MODEL_PATH` in the
# background unless MODEL_PATH=api, polls /v1/models, then runs run_multi_react.py); eight servers trimmed to one.

# Load environment variables from .env file
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENV_FILE="$SCRIPT_DIR/../.env"

if [ ! -f "$ENV_FILE" ]; then
    echo "Error: .env file not found at $ENV_FILE"
    echo "Please copy .env.example to .env and configure your settings:"
    echo "  cp .env.example .env"
    exit 1
fi

echo "Loading environment variables from .env file..."
set -a
source "$ENV_FILE"
set +a

# Validate critical variables
if [ -z "$MODEL_PATH" ]; then
    echo "Error: MODEL_PATH not configured in .env file"
    exit 1
fi

######################################
### 1. start server               ###
######################################
if [ "$MODEL_PATH" != "api" ]; then
    echo "Starting VLLM servers..."
    CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL_PATH --host 0.0.0.0 --port 6001 --disable-log-requests --max-model-len 2048 --return-sampling-mask --logprobs-mode processed_logprobs &
else
    echo "API mode detected (MODEL_PATH=api) — skipping local vLLM servers."
fi

#######################################################
### 2. Waiting for the server port to be ready     ###
#######################################################
if [ "$MODEL_PATH" != "api" ]; then
    timeout=6000
    start_time=$(date +%s)

    main_ports=(6001)
    echo "Mode: All ports used as main model"

    declare -A server_status
    for port in "${main_ports[@]}"; do
        server_status[$port]=false
    done

    echo "Waiting for servers to start..."

    while true; do
        all_ready=true
        for port in "${main_ports[@]}"; do
            if [ "${server_status[$port]}" = "false" ]; then
                if curl -s -f http://localhost:$port/v1/models > /dev/null 2>&1; then
                    echo "Main model server (port $port) is ready!"
                    server_status[$port]=true
                else
                    all_ready=false
                fi
            fi
        done

        if [ "$all_ready" = "true" ]; then
            echo "All servers are ready for inference!"
            break
        fi

        current_time=$(date +%s)
        elapsed=$((current_time - start_time))
        if [ $elapsed -gt $timeout ]; then
            echo -e "\nError: Server startup timeout after ${timeout} seconds"
            exit 1
        fi

        printf 'Waiting for servers to start .....'
        sleep 10
    done
else
    echo "API mode — skipping port readiness checks."
fi

#####################################
### 3. start infer               ####
#####################################
echo "==== start infer... ===="

cd "$( dirname -- "${BASH_SOURCE[0]}" )"

python -u run_multi_react.py \
  --dataset "$DATASET" \
  --output "$OUTPUT_PATH" \
  --max_workers ${MAX_WORKERS:-1} \
  --model "$MODEL_PATH" \
  --temperature ${TEMPERATURE:-0.2} \
  --presence_penalty ${PRESENCE_PENALTY:-1.1} \
  --total_splits ${WORLD_SIZE:-1} \
  --worker_split $((${RANK:-0} + 1)) \
  --roll_out_count ${ROLLOUT_COUNT:-1}
