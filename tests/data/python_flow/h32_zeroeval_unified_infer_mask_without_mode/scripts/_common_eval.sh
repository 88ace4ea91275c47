DATA_NAME=$1
model_name=$2
model_pretty_name=$3

TEMP=0; TOP_P=1.0; MAX_TOKENS=1024; # expect: RPL101
batch_size=4;
CACHE_DIR=${HF_HOME:-"default"}
output_dir="result_dirs/${DATA_NAME}/"

gpu="0"; num_gpus=1; # change the number of gpus to your preference
CUDA_VISIBLE_DEVICES=$gpu \
python src/unified_infer.py \
    --data_name $DATA_NAME \
    --model_name $model_name \
    --download_dir $CACHE_DIR \
    --tensor_parallel_size $num_gpus \
    --dtype bfloat16 \
    --max_model_len 2048 \
    --model_pretty_name $model_pretty_name \
    --top_p $TOP_P --temperature $TEMP \
    --batch_size $batch_size --max_tokens $MAX_TOKENS \
    --output_folder $output_dir/
