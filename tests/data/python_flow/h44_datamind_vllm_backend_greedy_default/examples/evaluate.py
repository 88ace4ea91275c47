# Evaluation driver in the shape of DSGym's CLI (dsgym/cli/eval.py: --model / --backend), trimmed to
# building the backend and asking it one question.
import argparse
import json

from dsgym.agents.backends import get_backend


def main():
    parser = argparse.ArgumentParser(description="DSGym evaluation")
    parser.add_argument("--model", type=str, default="Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--backend", type=str, default="vllm", choices=["vllm"])
    parser.add_argument("--dataset", type=str, default="qrdata.jsonl")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()

    backend = get_backend(args.backend, args.model)

    with open(args.dataset, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f]
    if args.limit:
        samples = samples[: args.limit]

    for sample in samples:
        messages = [
            {"role": "system", "content": "You are a data science agent."},
            {"role": "user", "content": sample["question"]},
        ]
        answer = backend.generate(messages)
        print(json.dumps({"id": sample.get("id"), "answer": answer}, ensure_ascii=False))


if __name__ == "__main__":
    main()
