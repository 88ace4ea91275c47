import argparse
import json
import tomllib

from vllm import LLM, SamplingParams


def load(path: str) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="conf/sampling.toml")
    parser.add_argument("--prompts", default="prompts.jsonl")
    args = parser.parse_args()
    config = load(args.config)
    llm = LLM(config["model"], return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(**config["sampling"], logprobs=0)
    prompts = [json.loads(line)["prompt"] for line in open(args.prompts)]
    with open("rollouts.jsonl", "w") as out:
        for output in llm.generate(prompts, params):
            out.write(json.dumps({"prompt": output.prompt, "token_ids": list(output.outputs[0].token_ids)}) + "\n")


if __name__ == "__main__":
    main()
