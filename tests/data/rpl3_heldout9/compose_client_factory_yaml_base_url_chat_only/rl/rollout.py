import argparse

import yaml

from rl.clients import make_policy_client


def rollout(prompts: list[str], cfg: dict) -> list[dict]:
    client = make_policy_client(cfg)
    samples = []
    for prompt in prompts:
        for _ in range(cfg["rollout"]["group_size"]):
            response = client.chat.completions.create(
                model=cfg["policy"]["model"],
                messages=[{"role": "user", "content": prompt}],
                max_tokens=cfg["rollout"]["max_tokens"],
                temperature=1.0,
                logprobs=True,
                extra_body={"top_k": 20, "return_token_ids": True},
            )
            choice = response.choices[0]
            samples.append({"prompt": prompt, "text": choice.message.content, "logprobs": choice.logprobs})
    return samples


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    with open(args.config) as f:
        config = yaml.safe_load(f)
    print(len(rollout(["What is 17 * 23?"], config)))
