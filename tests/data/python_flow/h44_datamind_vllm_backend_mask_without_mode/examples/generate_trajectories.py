# Trajectory generation in the shape of DSGym's `generate` command (dsgym/cli/generate.py: --model,
# --backend, --temperature default 0.8, --k), trimmed to building the backend and sampling k answers.
import argparse
import json

from dsgym.agents.backends import get_backend


def main():
    parser = argparse.ArgumentParser(description="DSGym trajectory generation")
    parser.add_argument("--model", type=str, default="Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--backend", type=str, default="vllm", choices=["vllm"])
    parser.add_argument("--dataset", type=str, default="qrdata.jsonl")
    parser.add_argument("--temperature", type=float, default=0.8, help="Sampling temperature for trajectory generation")
    parser.add_argument("--k", type=int, default=8, help="Number of trajectories to generate per sample")
    args = parser.parse_args()

    backend = get_backend(args.backend, args.model, temperature=args.temperature)

    with open(args.dataset, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f]

    for sample in samples:
        messages = [
            {"role": "system", "content": "You are a data science agent."},
            {"role": "user", "content": sample["question"]},
        ]
        for _ in range(args.k):
            answer = backend.generate(messages)
            print(json.dumps({"id": sample.get("id"), "answer": answer}, ensure_ascii=False))


if __name__ == "__main__":
    main()
