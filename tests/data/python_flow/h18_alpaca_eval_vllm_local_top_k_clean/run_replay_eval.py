# Imitates tatsu-lab/alpaca_eval's `completions_kwargs` of models_configs/*/configs.yaml handed to the decoder as **kwargs
from alpaca_eval.decoders.vllm_local import vllm_local_completions

COMPLETIONS_KWARGS = {
    "model_name": "Qwen/Qwen2.5-7B-Instruct",
    "model_kwargs": {"tp": 1},
    "max_new_tokens": 2048,
    "temperature": 0.7,
    "top_p": 1.0,
    "top_k": 50,
}

if __name__ == "__main__":
    prompts = ["Write a haiku about replay."]
    print(vllm_local_completions(prompts, **COMPLETIONS_KWARGS)["completions"])
