# Imitates SafeAILab/EAGLE's README on serving EAGLE heads with vLLM (a speculative config naming the
# EAGLE draft model); the user's registry of draft configs by target model.
EAGLE_HEADS = {
    "meta-llama/Meta-Llama-3-8B-Instruct": {
        "method": "eagle",
        "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B",
        "num_speculative_tokens": 5,
    },
}


def speculative_config_for(model, adaptive=False):
    config = dict(EAGLE_HEADS[model])
    config["enable_adaptive_verification"] = adaptive
    return config
