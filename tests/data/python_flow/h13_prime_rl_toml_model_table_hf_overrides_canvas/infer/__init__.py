# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/ (package marker).
