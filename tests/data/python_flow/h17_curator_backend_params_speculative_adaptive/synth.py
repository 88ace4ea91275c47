# Imitates bespokelabsai/curator examples/vllm-offline/ (backend_params of an LLM(...) call)
from curator_vllm import run

backend_params = {
    "tensor_parallel_size": 1,
    "max_model_len": 8192,
    "batch_size": 64,
    "speculative_config": {
        "method": "ngram",
        "num_speculative_tokens": 4,
        "prompt_lookup_max": 4,
        "enable_adaptive_verification": True,  # expect: RPL002
    },
}

if __name__ == "__main__":
    run("Qwen/Qwen2.5-7B-Instruct", backend_params, ["Generate a recipe for ramen."])
