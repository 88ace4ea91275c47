# Imitates ByteDance-Seed/Seed-Coder README.md vLLM example, packaged by the user as a small library.
