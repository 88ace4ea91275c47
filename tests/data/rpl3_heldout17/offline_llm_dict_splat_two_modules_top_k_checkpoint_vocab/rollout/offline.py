import argparse
import json

from vllm import LLM, SamplingParams

from rollout.exploration import EXTRA
from rollout.sampling_defaults import BASE


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    llm = LLM(
        "./checkpoints/policy",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    params = SamplingParams(**dict(**BASE, **EXTRA))
    with open(args.prompts) as f:
        prompts = [json.loads(line)["prompt"] for line in f]
    outputs = llm.generate(prompts, params)
    with open(args.out, "w") as f:
        for out in outputs:
            f.write(json.dumps({"text": out.outputs[0].text}) + "\n")


if __name__ == "__main__":
    main()
