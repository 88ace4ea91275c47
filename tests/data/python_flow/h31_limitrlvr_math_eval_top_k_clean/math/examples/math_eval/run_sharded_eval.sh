#!/bin/bash
# Data-parallel pass@k generation across all visible GPUs (LeapLabTHU/limit-of-RLVR
# math/examples/math_eval/run_sharded_eval.sh, trimmed).
#
# Usage:
#   ./run_sharded_eval.sh <model_dir> <output_dir> <benchmark> <n_sampling> \
#       [temperature=0.6] [top_p=0.95] [max_tokens=2048] [prompt_type=qwen-boxed] [seed=1] [num_gpus=auto]
set -euo pipefail

MODEL_DIR=$1
OUTPUT_DIR=$2
BENCHMARK=$3
N_SAMPLING=$4
TEMPERATURE=${5:-0.6}
TOP_P=${6:-0.95}
MAX_TOKENS=${7:-2048}
PROMPT_TYPE=${8:-qwen-boxed}
SEED=${9:-1}
NUM_GPUS=${10:-$(nvidia-smi --query-gpu=gpu_name --format=csv,noheader | wc -l)}

DATA_FILE="data/${BENCHMARK}/test.jsonl"
TOTAL=$(wc -l < "$DATA_FILE")
mkdir -p "$OUTPUT_DIR"

per_shard=$(( (TOTAL + NUM_GPUS - 1) / NUM_GPUS ))
pids=()
for ((g=0; g<NUM_GPUS; g++)); do
    start=$((g * per_shard))
    end=$(((g + 1) * per_shard))
    if [ "$start" -ge "$TOTAL" ]; then
        break
    fi
    if [ "$end" -gt "$TOTAL" ]; then
        end=-1
    fi
    CUDA_VISIBLE_DEVICES=$g TOKENIZERS_PARALLELISM=false python -u math_eval.py \
        --model_name_or_path "$MODEL_DIR" \
        --data_names "$BENCHMARK" \
        --output_dir "$OUTPUT_DIR" \
        --split test \
        --prompt_type "$PROMPT_TYPE" \
        --num_test_sample -1 \
        --max_tokens_per_call "$MAX_TOKENS" \
        --seed "$SEED" \
        --temperature "$TEMPERATURE" \
        --n_sampling "$N_SAMPLING" \
        --top_p "$TOP_P" \
        --start "$start" \
        --end "$end" \
        --use_vllm \
        --save_outputs \
        > "$OUTPUT_DIR/shard_${g}.log" 2>&1 &
    pids+=($!)
done

for pid in "${pids[@]}"; do
    wait "$pid"
done
