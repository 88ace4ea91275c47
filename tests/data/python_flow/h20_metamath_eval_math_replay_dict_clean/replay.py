# Imitates meta-math/MetaMath eval_math.py: the user keeps the replay switches in a module beside it.
REPLAY_ENGINE_KWARGS = dict(
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enforce_eager=False,
)
