"""Samples every prompt once and stores tokens, logprobs and masks."""

import json
import sys

from rollout.client import PolicyClient


def main(prompts_path: str, out_path: str) -> None:
    with PolicyClient() as policy, open(prompts_path) as prompts, open(out_path, "w") as out:
        for line in prompts:
            out.write(json.dumps(policy.generate(json.loads(line)["token_ids"])) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
