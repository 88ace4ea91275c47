#!/bin/bash
# Imitates magpie-align/magpie scripts/magpie-qwen2.5-7b.sh (the instruction stage)
model_path=${1:-"Qwen/Qwen2.5-7B-Instruct"}
total_prompts=${2:-1000}
ins_topp=${3:-1}
ins_temp=${4:-0.7}
device="0"
tensor_parallel=1
gpu_memory_utilization=0.95
n=200

# Get Current Time
timestamp=$(date +%s)

# Generate Pretty Name
job_name="${model_path##*/}_topp${ins_topp}_temp${ins_temp}_${timestamp}"

### Setup Logging
log_dir="data"
if [ ! -d "../${log_dir}" ]; then
    mkdir -p "../${log_dir}"
fi

job_path="../${log_dir}/${job_name}"

mkdir -p $job_path
exec > >(tee -a "$job_path/${job_name}.log") 2>&1
echo "[magpie.sh] Model Name: $model_path"
echo "[magpie.sh] Instruction Generation Config: temp=$ins_temp, top_p=$ins_topp"

echo "[magpie.sh] Start Generating Instructions..."
CUDA_VISIBLE_DEVICES=$device python ../exp/gen_ins.py \
    --device $device \
    --model_path $model_path \
    --total_prompts $total_prompts \
    --top_p $ins_topp \
    --temp $ins_temp \
    --tensor_parallel $tensor_parallel \
    --gpu_memory_utilization $gpu_memory_utilization \
    --n $n \
    --job_name $job_name \
    --timestamp $timestamp \

echo "[magpie.sh] Finish Generating Instructions!"
