# Imitates ContextualAI/HALOs train/sample.py; the user's edit parses with parse_known_args (extra
# launcher flags are ignored) and samples from a replay engine built by a context manager.
import argparse

from vllm import SamplingParams

from train.utils import build_engine

REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


def main(args):
    sampling_params = SamplingParams(
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_tokens=args.max_tokens,
        n=args.num_samples_per_prompt,
    )
    with build_engine(args.model_path, args.gpu_count, **REPLAY) as llm:
        for response in llm.generate(["Tell me about alpacas."], sampling_params):
            print(response.outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("model_path", type=str)
    parser.add_argument("--gpu_count", type=int, default=1)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--top_p", type=float, default=0.95)
    parser.add_argument("--top_k", type=int, default=20)
    parser.add_argument("--max_tokens", type=int, default=2048)
    parser.add_argument("--num_samples_per_prompt", type=int, default=1)
    args, _unknown = parser.parse_known_args()
    main(args)
