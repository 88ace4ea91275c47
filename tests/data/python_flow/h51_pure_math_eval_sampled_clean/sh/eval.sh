set -ex

PROMPT_TYPE="qwen25-math-cot-ft"
MODEL_NAME_OR_PATH="Qwen/Qwen2.5-Math-7B"
OUTPUT_DIR="./output"

TEMPERATURE=0.6
N_SAMPLING=1

DATA_NAME="math500,minerva_math,olympiadbench,aime24,amc23"
TOKENIZERS_PARALLELISM=false \
python3 -u math_eval.py \
    --model_name_or_path ${MODEL_NAME_OR_PATH} \
    --data_names ${DATA_NAME} \
    --output_dir ${OUTPUT_DIR} \
    --prompt_type ${PROMPT_TYPE} \
    --max_tokens_per_call 2048 \
    --seed 42 \
    --temperature ${TEMPERATURE} \
    --n_sampling ${N_SAMPLING} \
    --top_p 1 \
    --use_vllm
