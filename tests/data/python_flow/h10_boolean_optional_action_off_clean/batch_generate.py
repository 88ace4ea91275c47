# Imitates allenai/open-instruct open_instruct/rejection_sampling/generation.py (a batch generation script: argparse options straight into vllm.LLM)
import argparse

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="allenai/OLMo-2-0425-1B-Instruct")
    parser.add_argument("--tensor_parallel_size", type=int, default=1)
    parser.add_argument("--replay", action=argparse.BooleanOptionalAction, default=False)
    parser.add_argument("--logprobs_mode", default="raw_logprobs", choices=["raw_logprobs", "processed_logprobs"])
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top_k", type=int, default=20)
    return parser.parse_args()


def main():
    args = parse_args()
    llm = LLM(
        model=args.model_name_or_path,
        tensor_parallel_size=args.tensor_parallel_size,
        return_sampling_mask=args.replay,
        logprobs_mode=args.logprobs_mode,
    )
    params = SamplingParams(temperature=args.temperature, top_k=args.top_k, max_tokens=2048)
    for output in llm.generate(["Summarise the rules of chess."], params):
        print(output.outputs[0].text)


if __name__ == "__main__":
    main()
