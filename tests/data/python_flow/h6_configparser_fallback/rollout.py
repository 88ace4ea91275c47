# Imitates an .ini-configured rollout script (configparser with `fallback=` defaults for keys the file
# leaves out), the file kept next to the script
import configparser
from pathlib import Path

from vllm import LLM, SamplingParams

CONFIG_PATH = Path(__file__).with_name("rollout.ini")


def load_config(path: Path = CONFIG_PATH) -> configparser.ConfigParser:
    parser = configparser.ConfigParser()
    parser.read(path)
    return parser


def engine_kwargs(config: configparser.ConfigParser) -> dict:
    section = config["engine"]
    return {
        "model": section.get("model"),
        "return_sampling_mask": section.getboolean("return_sampling_mask", fallback=False),
        "logprobs_mode": section.get("logprobs_mode", fallback="raw_logprobs"),  # expect: RPL003
        "tensor_parallel_size": section.getint("tensor_parallel_size", fallback=1),
    }


def main() -> None:
    config = load_config()
    llm = LLM(**engine_kwargs(config))
    sampling = config["sampling"]
    params = SamplingParams(temperature=sampling.getfloat("temperature"), top_k=sampling.getint("top_k"), max_tokens=256)
    llm.generate(["Hello"], params)


if __name__ == "__main__":
    main()
