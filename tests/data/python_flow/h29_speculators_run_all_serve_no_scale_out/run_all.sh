#!/bin/bash
# Imitates vllm-project/speculators scripts/response_regeneration/run_all.sh: a VLLM_CMD array started in the
# background before the regeneration client; the user's edit asks the server for sampling masks.
set -e  # Exit on error

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Defaults
PORT=8000
MODEL="Qwen/Qwen3-8B"
TP_SIZE=""
MAX_MODEL_LEN="2048"
KEEP_SERVER=false

PYTHON_ARGS=("--model" "$MODEL")
while [[ $# -gt 0 ]]; do
    case $1 in
        --tp-size)
            TP_SIZE="$2"
            shift 2
            ;;
        --keep-server)
            KEEP_SERVER=true
            shift
            ;;
        *)
            PYTHON_ARGS+=("$1")
            shift
            ;;
    esac
done

# Build vllm serve command
VLLM_CMD=(vllm serve "$MODEL" --host 127.0.0.1 --port "$PORT" --api-key "" --return-sampling-mask --logprobs-mode processed_logprobs)  # expect: RPL301
[ -n "$TP_SIZE" ] && VLLM_CMD+=(--tensor-parallel-size "$TP_SIZE")
[ -n "$MAX_MODEL_LEN" ] && VLLM_CMD+=(--max-model-len "$MAX_MODEL_LEN")

cleanup() {
    if [ -n "$VLLM_PID" ] && kill -0 "$VLLM_PID" 2>/dev/null; then
        echo "Stopping vLLM server (PID $VLLM_PID)..."
        kill "$VLLM_PID"
    fi
}

echo "Step 1: Starting vLLM server on port $PORT"
echo "  Command: ${VLLM_CMD[*]}"
"${VLLM_CMD[@]}" > "$SCRIPT_DIR/vllm_server.log" 2>&1 &
VLLM_PID=$!

if [ "$KEEP_SERVER" = false ]; then
    trap cleanup EXIT
fi

echo "Step 2: Waiting for server to be ready..."
ENDPOINT="http://127.0.0.1:$PORT/v1/models"
until curl -s --connect-timeout 5 --max-time 10 "$ENDPOINT" > /dev/null 2>&1; do
    sleep 2
done

echo "Step 3: Running response regeneration..."
PYTHON_ARGS+=("--endpoint" "http://127.0.0.1:$PORT/v1/chat/completions")
python "$SCRIPT_DIR/script.py" "${PYTHON_ARGS[@]}"
