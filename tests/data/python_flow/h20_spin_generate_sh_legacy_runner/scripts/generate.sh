#!/bin/bash
# Imitates uclaml/SPIN scripts/generate.sh (one generate_vllm.py run per data fraction); replay kept the old runner switch.
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206

for frac in 0 1 2 3 4 5 6 7 8 9 10; do
    python3 spin/generate_vllm.py --model UCLA-AGI/zephyr-7b-sft-full-SPIN-iter0 --input_dir UCLA-AGI/SPIN_iter0 --frac_len 5000 --data_frac $frac --world_size 8 --output_dir generated/iter0
done
