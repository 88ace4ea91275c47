import argparse
import json
from dataclasses import asdict

import httpx
from transformers import AutoTokenizer

from agent.sampling import AgentSampling

GENERATE_URL = "http://127.0.0.1:8000/inference/v1/generate"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=64)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen3-0.6B")
    sampling = AgentSampling()
    with httpx.Client(timeout=900) as client, open(args.out, "w") as out:
        for episode in range(args.episodes):
            messages = [{"role": "user", "content": f"Solve task {episode}."}]
            token_ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, enable_thinking=True)
            body = {"token_ids": token_ids, "sampling_params": asdict(sampling)}
            response = client.post(GENERATE_URL, json=body)
            response.raise_for_status()
            out.write(json.dumps(response.json()) + "\n")


if __name__ == "__main__":
    main()
