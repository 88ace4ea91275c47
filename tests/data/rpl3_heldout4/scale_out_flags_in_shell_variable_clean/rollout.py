import argparse

import requests

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
args = parser.parse_args()

body = {"token_ids": [1, 2, 3], "sampling_params": {"temperature": 1.0, "top_k": 50}}
print(requests.post(args.url, json=body, timeout=60).json())
