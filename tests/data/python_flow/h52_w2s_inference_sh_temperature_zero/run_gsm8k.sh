# Imitates GAIR-NLP/weak-to-strong-reasoning run_gsm8k.sh (the zero-shot run).
# zero-shot
DEVICE=0,1,2,3
ckpts_dir=""
MODEL_NAME="llama2-70b"
MODEL_TYPE="vllm"
PROMPT_TYPE="zero-shot"
DEV_SET="gsm8k"
TEMPLATE_SET="zero_shot"
INSTRUCTION_TYPE="direct"

CUDA_VISIBLE_DEVICES=${DEVICE} python -u -m src.inference --model_dir ${ckpts_dir}/${MODEL_NAME} --output_file_name outputs/${DEV_SET}/${TEMPLATE_SET}/${MODEL_NAME}/${PROMPT_TYPE}/${INSTRUCTION_TYPE}/output.jsonl --model_type ${MODEL_TYPE} --temperature 0 --dev_set ${DEV_SET} --template ${TEMPLATE_SET} --prompt_type ${PROMPT_TYPE} --answer_key "####" --stop "Question" "Answer" --instruction_type ${INSTRUCTION_TYPE}  # expect: RPL101
