# Imitates OpenBMB/UltraFeedback src/comparison_data_generation/sampling.py (the model pool), with per-model
# generation settings kept next to it.
model_pool = ["ultralm-13b", "llama-2-13b-chat", "vicuna-33b", "wizardlm-13b"]

GEN_KWARGS = {
    "ultralm-13b": {"temperature": 1.0, "top_p": 1.0, "top_k": 50},
    "vicuna-33b": {"temperature": 1.0, "top_p": 1.0, "top_k": 50, "repetition_penalty": 1.1},  # expect: RPL302
    "wizardlm-13b": {"temperature": 1.0, "top_p": 1.0, "top_k": 50},
}
