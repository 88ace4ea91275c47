#!/bin/bash
# from Xwin-Coder's README: sample HumanEval completions with vLLM, then score them
model=Xwin-LM/XwinCoder-7B
output_path=outputs/humaneval_xwincoder_7b

mkdir -p ${output_path}
python humaneval_gen.py --model ${model} \
    --temperature 0.8 --N 200 --num_seqs_per_iter 50 --max_len 512 \
    --output_path ${output_path} --vllm
