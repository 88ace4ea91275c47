# Imitates an .ini-configured rollout script whose settings file is named on the command line
# (configparser reading a file the tree does not hold; its keys decide)
import argparse
import configparser

from vllm import LLM, SamplingParams


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True, help="path to the rollout .ini file")
    args = parser.parse_args()

    config = configparser.ConfigParser()
    config.read(args.config)
    engine = config["engine"]
    llm = LLM(
        model=engine.get("model"),
        return_sampling_mask=engine.getboolean("return_sampling_mask", fallback=True),
        logprobs_mode=engine.get("logprobs_mode", fallback="raw_logprobs"),
    )
    params = SamplingParams(temperature=1.0, top_k=50, max_tokens=256)
    llm.generate(["Hello"], params)


if __name__ == "__main__":
    main()
