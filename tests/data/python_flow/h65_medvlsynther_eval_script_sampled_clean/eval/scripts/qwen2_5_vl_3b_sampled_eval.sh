python eval/run_offline_inference.py \
    --model Qwen/Qwen2.5-VL-3B-Instruct \
    --dp_size 2 \
    --tp_size 1 \
    --temperature 0.6 \
    --n 4 \
    --batch_size 32 \
    --output_dir outputs_eval/qwen2_5_vl_3b_sampled \
    --max_tokens 1024
