# Imitates PrimeIntellect-ai/prime-rl/src/prime_rl/inference/config.py (engine and sampling settings kept in a TOML file, read by path)
import tomllib
from pathlib import Path

from vllm import LLM, SamplingParams

CONFIG_PATH = Path(__file__).parent / "configs" / "infer.toml"


def load_config(path: Path = CONFIG_PATH) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def main() -> None:
    config = load_config()
    llm = LLM(**config["vllm"])
    params = SamplingParams(**config["sampling"])
    for out in llm.generate(["Solve: 17 * 23 ="], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
