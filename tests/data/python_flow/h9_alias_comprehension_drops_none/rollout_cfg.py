# Imitates volcengine/verl verl/workers/config/rollout.py (rollout options, unset ones left as None)
ROLLOUT = {
    "return_sampling_mask": True,  # expect: RPL003
    "logprobs_mode": None,
    "max_num_seqs": 256,
    "max_model_len": None,
}
