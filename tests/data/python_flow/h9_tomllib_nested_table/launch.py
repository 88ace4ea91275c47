# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/config.py (TOML config with an [inference.vllm]-style table handed to vLLM)
import tomllib
from pathlib import Path

from vllm import LLM, SamplingParams

CONFIG_PATH = Path(__file__).parent / "rollout.toml"


def load_config() -> dict:
    with open(CONFIG_PATH, "rb") as f:
        return tomllib.load(f)


def main() -> None:
    cfg = load_config()
    llm = LLM(**cfg["engine"])
    params = SamplingParams(**cfg["sampling"])
    for out in llm.generate(["Find all real x with x^2 = 2x."], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
