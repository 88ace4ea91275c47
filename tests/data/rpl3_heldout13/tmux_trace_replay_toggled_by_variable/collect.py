import argparse
import json
import sys

import requests


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="http://localhost:8000")
    args = parser.parse_args()
    for line in sys.stdin:
        token_ids = json.loads(line)["token_ids"]
        body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 64, "max_tokens": 1024, "logprobs": 0}}
        response = requests.post(f"{args.server}/inference/v1/generate", json=body, timeout=600)
        response.raise_for_status()
        print(json.dumps(response.json()))


if __name__ == "__main__":
    main()
