# exploration settings for the policy's rollouts
EXTRA = dict(
    top_p=1.0,
    top_k=64,
)
