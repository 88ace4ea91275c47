python tree_search/utils/start_vllm_server.py --path /data/base_model/Qwen2.5-7B-Instruct --port 40000 --usage 0.45
