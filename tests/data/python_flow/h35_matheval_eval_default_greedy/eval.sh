CUDA_VISIBLE_DEVICES='0,1,2,3' \
VLLM_WORKER_MULTIPROC_METHOD=spawn \
python eval.py \
--model_name_or_path "Qwen/Qwen2.5-7B" \
--data_name "math500" \
--prompt_type "qwen-instruct" \
--start_idx 0 \
--end_idx -1 \
--n_sampling 1 \
--k 1 \
--split "test" \
--max_tokens 1024 \
--seed 0 \
--surround_with_messages \

