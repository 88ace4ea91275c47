import argparse
import json

from transformers import AutoTokenizer

from rollout.clients import make_policy_client

GENERATE_PATH = "/inference/v1/generate"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen3-0.6B")
    client = make_policy_client()
    with open(args.prompts) as src, open(args.out, "w") as dst:
        for line in src:
            prompt = json.loads(line)["prompt"]
            token_ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True)
            body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 1024, "logprobs": 1}}
            resp = client.post(GENERATE_PATH, json=body)
            resp.raise_for_status()
            dst.write(json.dumps({"prompt": prompt, "response": resp.json()}) + "\n")


if __name__ == "__main__":
    main()
