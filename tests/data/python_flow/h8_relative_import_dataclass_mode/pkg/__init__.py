# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference (a package: config, engine, entry point)
