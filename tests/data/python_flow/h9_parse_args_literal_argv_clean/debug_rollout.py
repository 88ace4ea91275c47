# Imitates allenai/open-instruct open_instruct/grpo_fast.py debugging entry point (parse_args of a literal argv instead of sys.argv)
import argparse

from vllm import LLM, SamplingParams


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="rollout smoke test")
    parser.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    parser.add_argument("--return-sampling-mask", action="store_true")
    parser.add_argument(
        "--logprobs-mode",
        default="processed_logprobs",
        choices=["raw_logprobs", "processed_logprobs", "raw_logits", "processed_logits"],
    )
    parser.add_argument("--top-k", type=int, default=50)
    return parser


if __name__ == "__main__":
    # fixed argv while debugging on the cluster
    args = make_parser().parse_args(["--return-sampling-mask", "--top-k", "40"])
    llm = LLM(
        model=args.model,
        return_sampling_mask=args.return_sampling_mask,
        logprobs_mode=args.logprobs_mode,
    )
    outputs = llm.generate(["The capital of France is"], SamplingParams(temperature=1.0, top_k=args.top_k))
    print(outputs[0].outputs[0].text)
