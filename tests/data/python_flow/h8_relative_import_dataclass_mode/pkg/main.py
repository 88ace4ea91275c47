# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: the entry point (python -m pkg.main)
from .config import VLLMConfig
from .engine import build


def main():
    build(VLLMConfig(model="PrimeIntellect/Qwen3-0.6B"))


if __name__ == "__main__":
    main()
