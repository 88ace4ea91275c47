export CUDA_VISIBLE_DEVICES=0

OUTFILE="omni_judge_out.jsonl"

python3 omni_judge_vllm.py \
    -i in_file.jsonl \
    -o  $OUTFILE \
    -m ./Omni_Judge_Model

python3 get_result.py \
    -i $OUTFILE
