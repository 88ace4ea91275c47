set -ex

PROMPT_TYPE=$1
MODEL_NAME_OR_PATH=$2
OUTPUT_DIR=${MODEL_NAME_OR_PATH}/$3
ENGINE_TYPE=$4


SPLIT="test"

# English open datasets
DATA_NAME="gsm8k,math,minerva_math,olympiadbench,college_math"
TOKENIZERS_PARALLELISM=false \
python3 -u math_eval.py \
    --model_name_or_path ${MODEL_NAME_OR_PATH} \
    --data_name ${DATA_NAME} \
    --output_dir ${OUTPUT_DIR} \
    --split ${SPLIT} \
    --prompt_type ${PROMPT_TYPE} \
    --seed 0 \
    --n_sampling 1 \
    --top_p 1 \
    --mem_fraction_static 0.65 \
    --use_serving_engine \
    --engine_type ${ENGINE_TYPE} \
    --temperature 0.6
