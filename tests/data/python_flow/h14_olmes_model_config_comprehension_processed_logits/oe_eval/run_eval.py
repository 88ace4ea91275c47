# Imitates allenai/olmes oe_eval/run_eval.py (load_model: drop the non-model keys of the model config, build VLLM_Verbose)
from oe_eval.configs.models import MODEL_CONFIGS
from oe_eval.models.vllm_verbose import VLLM_Verbose

NON_MODEL_KEYS = ("model", "model_type", "chat_model", "metadata", "model_path")


def load_model(model_load_config: dict):
    model_path = model_load_config.get("model_path") or model_load_config["model"]
    model_type = model_load_config["model_type"]
    model_args = {k: v for k, v in model_load_config.items() if k not in NON_MODEL_KEYS}
    if model_type == "vllm":
        return VLLM_Verbose(pretrained=model_path, **model_args)
    raise ValueError(f"Unsupported model type: {model_type}")


if __name__ == "__main__":
    model_config = dict(MODEL_CONFIGS["olmo-2-1124-7b-instruct-replay"], gpu_memory_utilization=0.85)
    model = load_model(model_config)
    print(model.generate_until(["Question: What is 3 + 4?\nAnswer:"]))
