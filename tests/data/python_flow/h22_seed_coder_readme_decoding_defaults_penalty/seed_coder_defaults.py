# Imitates ByteDance-Seed/Seed-Coder README.md "Offline Batched Inference" ("Pass the default decoding
# hyperparameters of Seed-Coder-8B-Instruct": temperature=0.6, top_p=0.8, repetition_penalty=1.05), kept by
# the user in a module of defaults.
DEFAULT_DECODING = {
    "temperature": 0.6,
    "top_p": 0.8,
    "top_k": 20,
    "repetition_penalty": 1.05,  # expect: RPL302
    "max_tokens": 512,
}
