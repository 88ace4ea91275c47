# Imitates NVIDIA-NeMo/Skills/nemo_skills/inference/ (the sampling keywords of a reasoning model kept in a
# helper of their own), with vLLM's thinking_token_budget
def reasoning_sampling_kwargs() -> dict:
    return {
        "temperature": 0.6,
        "top_p": 0.95,
        "top_k": 20,
        "max_tokens": 8192,
        "thinking_token_budget": 2048,  # expect: RPL303
    }
