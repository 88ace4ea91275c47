# Imitates allenai/olmes oe_eval/configs/models.py (MODEL_CONFIGS: named model presets with model_type and metadata)
MODEL_CONFIGS: dict = {}

MODEL_CONFIGS.update(
    {
        "olmo-2-1124-7b-instruct": {
            "model": "allenai/OLMo-2-1124-7B-Instruct",
            "chat_model": True,
            "model_type": "vllm",
            "max_length": 4096,
            "metadata": {"alias": "olmo-2-7b-instruct"},
        },
        "olmo-2-1124-7b-instruct-replay": {
            "model": "allenai/OLMo-2-1124-7B-Instruct",
            "chat_model": True,
            "model_type": "vllm",
            "max_length": 4096,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logits",  # expect: RPL003
            "metadata": {"alias": "olmo-2-7b-instruct-replay"},
        },
    }
)
