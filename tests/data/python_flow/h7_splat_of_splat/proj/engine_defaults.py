# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/config.py: shared engine defaults in
# one module of the package, spread into a fresh dict by another.
ENGINE_BASE = {
    "model": "PrimeIntellect/INTELLECT-3-mini",
    "logprobs_mode": "processed_logprobs",
    "logits_processors": ["proj.processors:RepetitionGuard"],  # expect: RPL001
}
