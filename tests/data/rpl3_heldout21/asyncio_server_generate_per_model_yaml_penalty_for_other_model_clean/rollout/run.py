import argparse

import requests

from rollout.sampling import extra_body_for

URL = "http://localhost:8100/inference/v1/generate"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="Qwen/Qwen3-8B")
    args = parser.parse_args()
    body = {"token_ids": [151644, 872, 198], "sampling_params": extra_body_for(args.model)}
    print(requests.post(URL, json=body, timeout=600).json()["choices"][0]["sampling_mask"])


if __name__ == "__main__":
    main()
