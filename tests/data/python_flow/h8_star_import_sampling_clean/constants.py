# Imitates inclusionAI/AReaL areal/api/cli_args.py defaults kept as module constants
SAMPLING = dict(temperature=1.0, top_k=20, top_p=1.0, max_tokens=512)
ENGINE = dict(return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_prefix_caching=True)
