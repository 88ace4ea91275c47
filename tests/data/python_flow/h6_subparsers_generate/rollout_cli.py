# Imitates vllm-project/vllm/vllm/entrypoints/cli/main.py (subcommands registered with add_subparsers,
# each with its own options and a handler chosen by set_defaults(func=...))
import argparse

from vllm import LLM, SamplingParams


def cmd_generate(args: argparse.Namespace) -> None:
    llm = LLM(
        model=args.model,
        return_sampling_mask=True,
        logprobs_mode=args.logprobs_mode,
        max_model_len=args.max_model_len,
    )
    params = SamplingParams(temperature=1.0, top_k=args.top_k, max_tokens=256)
    for output in llm.generate(["Write a haiku about replay."], params):
        print(output.outputs[0].text)


def cmd_download(args: argparse.Namespace) -> None:
    from huggingface_hub import snapshot_download

    snapshot_download(args.model)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rollout")
    subparsers = parser.add_subparsers(dest="command", required=True)

    generate = subparsers.add_parser("generate", help="sample rollouts with sampling masks")
    generate.add_argument("--model", default="Qwen/Qwen2.5-1.5B-Instruct")
    generate.add_argument("--max-model-len", type=int, default=4096)
    generate.add_argument(
        "--logprobs-mode",
        choices=["raw_logprobs", "raw_logits", "processed_logprobs", "processed_logits"],
        default="raw_logprobs",  # expect: RPL003
    )
    generate.add_argument("--top-k", type=int, default=50)
    generate.set_defaults(func=cmd_generate)

    download = subparsers.add_parser("download", help="fetch the weights")
    download.add_argument("--model", required=True)
    download.set_defaults(func=cmd_download)
    return parser


def main() -> None:
    args = build_parser().parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
