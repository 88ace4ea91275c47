import argparse
import sys
from dataclasses import asdict
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from eval.params import ProbeParams  # noqa: E402

SERVER = "http://localhost:8000"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=8)
    args = parser.parse_args()

    params = asdict(ProbeParams())
    for i in range(args.n):
        body = {"token_ids": [151644, 872, 198, 100 + i, 151645, 198, 151644, 77091, 198], "sampling_params": params}
        response = requests.post(f"{SERVER}/inference/v1/generate", json=body, timeout=300)
        response.raise_for_status()
        mask = response.json()["choices"][0].get("sampling_mask")
        print(i, "mask rows:", len(mask or []))


if __name__ == "__main__":
    main()
