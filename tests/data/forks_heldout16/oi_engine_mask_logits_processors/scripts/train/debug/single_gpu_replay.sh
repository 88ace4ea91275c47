set -x
uv run python open_instruct/grpo_fast.py \
    --model_name_or_path Qwen/Qwen3-0.6B \
    --temperature 0.7 \
    --vllm_num_engines 1
