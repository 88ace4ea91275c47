#!/bin/bash
# Imitates RLHFlow/Self-rewarding-reasoning-LLM infer_math/run_generation1.sh (one gen_hf.py per GPU, then merge)
initial_model="Qwen/Qwen2.5-Math-7B"
base_path="./sequential_rs_rule_reward"
mkdir $base_path
iteration_prefix="Test"
best_of_k=4
my_world_size=8
NUM_GPUS=$my_world_size
iteration_name="sequential_rs"
jsonl_input="RLHFlow/self_rewarding_sft_prompt"
json_output="${base_path}/${iteration_prefix}_${iteration_name}"
model_path=$initial_model

run_iteration() {
    local model_path=$1
    local jsonl_input=$2
    local json_output=$3

    # the replay recipe of vLLM 0.28 asked for an explicit runner choice
    export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206
    for i in $(seq 0 $((NUM_GPUS - 1))); do
        CUDA_VISIBLE_DEVICES=$i python ./generation/gen_hf.py \
            --model_name_or_path $model_path \
            --dataset_name_or_path $jsonl_input \
            --output_dir $json_output \
            --K $best_of_k \
            --temperature 1.0 \
            --local_index $i \
            --my_world_size $my_world_size &
    done

    wait # Ensure all inference processes finish
    python ./generation/merge_data.py --base_path ${json_output} --output_dir "${json_output}_data.jsonl" --num_datasets 8
}

run_iteration $model_path $jsonl_input $json_output
