import argparse
import json

from rollout.clients import make_policy_client


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    client = make_policy_client()
    with open(args.prompts) as src, open(args.out, "w") as dst:
        for line in src:
            prompt = json.loads(line)["prompt"]
            messages = [{"role": "user", "content": prompt}]
            resp = client.chat.completions.create(model="Qwen/Qwen3-0.6B", messages=messages, temperature=1.0, max_tokens=1024, logprobs=True, extra_body={"top_k": 50})
            choice = resp.choices[0]
            dst.write(json.dumps({"prompt": prompt, "completion": choice.message.content}) + "\n")


if __name__ == "__main__":
    main()
