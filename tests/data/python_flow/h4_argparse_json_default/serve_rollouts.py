# Imitates rllm-org/rllm/examples/deepscaler/generate.py (engine arguments given as one JSON option)
import argparse
import json

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="agentica-org/DeepScaleR-1.5B-Preview")
    parser.add_argument(
        "--engine-args",
        type=json.loads,
        default='{"return_sampling_mask": true, "logprobs_mode": "processed_logits"}',  # expect: RPL003
        help="JSON object of extra vLLM engine arguments",
    )
    parser.add_argument("--top-k", type=int, default=32)
    return parser.parse_args()


def main():
    args = parse_args()
    llm = LLM(model=args.model, **args.engine_args)
    params = SamplingParams(temperature=0.6, top_k=args.top_k, max_tokens=8192)
    llm.generate(["Find the sum of all integer bases b > 9."], params)


if __name__ == "__main__":
    main()
