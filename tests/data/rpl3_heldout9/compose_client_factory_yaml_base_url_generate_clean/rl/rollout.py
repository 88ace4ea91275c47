import argparse

import yaml
from transformers import AutoTokenizer

from rl.clients import make_policy_client


def rollout(prompts: list[str], cfg: dict) -> list[dict]:
    client = make_policy_client(cfg)
    tokenizer = AutoTokenizer.from_pretrained(cfg["policy"]["model"])
    samples = []
    for prompt in prompts:
        token_ids = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True)
        for _ in range(cfg["rollout"]["group_size"]):
            response = client.post(
                "/inference/v1/generate",
                json={
                    "token_ids": token_ids,
                    "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": cfg["rollout"]["max_tokens"], "logprobs": 0},
                },
            )
            response.raise_for_status()
            choice = response.json()["choices"][0]
            samples.append({"prompt": prompt, "token_ids": choice["token_ids"], "mask": choice["sampling_mask"]})
    return samples


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    with open(args.config) as f:
        config = yaml.safe_load(f)
    print(len(rollout(["What is 17 * 23?"], config)))
