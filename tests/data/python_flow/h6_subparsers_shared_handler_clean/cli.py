# Imitates vllm-project/vllm/vllm/entrypoints/cli/main.py (add_subparsers): two subcommands share one
# handler, each with its own defaults; only `replay` turns the mask on, with processed_logprobs
import argparse

from vllm import LLM, SamplingParams


def run(args: argparse.Namespace) -> None:
    llm = LLM(model=args.model, return_sampling_mask=args.replay, logprobs_mode=args.logprobs_mode)
    llm.generate(["Hello"], SamplingParams(temperature=1.0, top_k=args.top_k, max_tokens=128))


def main() -> None:
    parser = argparse.ArgumentParser(prog="rollouts")
    parser.add_argument("--model", default="Qwen/Qwen2.5-1.5B-Instruct")
    subparsers = parser.add_subparsers(dest="command", required=True)

    replay = subparsers.add_parser("replay")
    replay.add_argument("--logprobs-mode", default="processed_logprobs")
    replay.add_argument("--top-k", type=int, default=64)
    replay.set_defaults(func=run, replay=True)

    bench = subparsers.add_parser("bench")
    bench.add_argument("--logprobs-mode", default="raw_logprobs")
    bench.add_argument("--top-k", type=int, default=-1)
    bench.set_defaults(func=run, replay=False)

    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
