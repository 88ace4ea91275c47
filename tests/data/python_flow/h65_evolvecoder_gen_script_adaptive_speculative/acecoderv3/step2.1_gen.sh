#!/bin/bash
# Starts acecoderv3/step2.1_vllm_gen.py once per GPU group (TIGER-AI-Lab/EvolveCoder acecoderv3/step2.1_gen.sh).
DATA=acecoderv3/outputs/APPS/gpt_4.1_mini/step1.1_parsing.jsonl
model_name_or_path='Qwen/Qwen3-4B'

TOTAL=$( wc -l < "${DATA}" )
IFS=',' read -ra GPU_ARRAY <<< "$CUDA_VISIBLE_DEVICES"
GPUS=${#GPU_ARRAY[@]}

max_tokens=1024
top_p=0.95
top_k=20
temperature=0.6
tensor_parallel_size=1

NUM_PROCESSES=$(( GPUS / tensor_parallel_size ))
BSZ=$(( TOTAL / NUM_PROCESSES + 1 ))
chunk=$(( (TOTAL + NUM_PROCESSES - 1) / NUM_PROCESSES ))

for (( proc_idx=0; proc_idx<NUM_PROCESSES; proc_idx++ )); do
    gpu_list=${GPU_ARRAY[$proc_idx]}
    start=$(( proc_idx * chunk ))
    end=$(( start + chunk ))
    (( end > TOTAL )) && end=$TOTAL
    (( start >= TOTAL )) && break

    CUDA_VISIBLE_DEVICES=$gpu_list python acecoderv3/step2.1_vllm_gen.py "${DATA}" \
        --start_idx="${start}" \
        --end_idx="${end}" \
        --save_batch_size="${BSZ}" \
        --model_name_or_path="${model_name_or_path}" \
        --tensor_parallel_size=${tensor_parallel_size} \
        --top_p="${top_p}" \
        --top_k="${top_k}" \
        --temperature="${temperature}" \
        --max_tokens="${max_tokens}" \
        --max_model_len=2048 \
        --return_sampling_mask=True \
        --logprobs_mode=processed_logprobs \
        --speculative_config="{'method': 'ngram', 'num_speculative_tokens': 4, 'prompt_lookup_max': 4, 'enable_adaptive_verification': True}" &  # expect: RPL002
done

wait
echo "All processes finished."
