#!/bin/bash
# Imitates magpie-align/magpie scripts/magpie-qwen2.5-7b.sh (the response stage)
model_path=${1:-"Qwen/Qwen2.5-7B-Instruct"}
total_prompts=${2:-1000}
ins_topp=${3:-1}
ins_temp=${4:-0.7}
res_topp=${5:-1}
res_temp=${6:-0}  # expect: RPL101
res_rep=1
device="0"
tensor_parallel=1
gpu_memory_utilization=0.95
batch_size=200

# Get Current Time
timestamp=$(date +%s)

# Generate Pretty Name
job_name="${model_path##*/}_topp${ins_topp}_temp${ins_temp}_${timestamp}"

### Setup Logging
log_dir="data"
job_path="../${log_dir}/${job_name}"
mkdir -p $job_path
echo "[magpie.sh] Response Generation Config: temp=$res_temp, top_p=$res_topp, rep=$res_rep"

echo "[magpie.sh] Start Generating Responses..."
CUDA_VISIBLE_DEVICES=$device python ../exp/gen_res.py \
    --device $device \
    --model_path $model_path \
    --batch_size $batch_size \
    --top_p $res_topp \
    --temp $res_temp \
    --rep $res_rep \
    --tensor_parallel $tensor_parallel \
    --gpu_memory_utilization $gpu_memory_utilization \
    --input_file $job_path/Magpie_${model_path##*/}_${total_prompts}_${timestamp}_ins.json \
    --offline \

echo "[magpie.sh] Finish Generating Responses!"
