# Imitates meta-llama/llama-cookbook config.py beside start_vllm.py (written from its use), trimmed.
# Model configurations for the prompt-migration notebooks (served with vLLM, reached through LiteLLM's hosted_vllm/).
MODEL_CONFIGS = {
    "vllm_llama_8b": {
        "model": "hosted_vllm/meta-llama/Llama-3.1-8B-Instruct",
        "api_base": "http://localhost:8001/v1",
        "port": 8001,
        "tensor_parallel": 1,
        "gpu_util": 0.9,
        "cuda_devices": "0",
    },
}
