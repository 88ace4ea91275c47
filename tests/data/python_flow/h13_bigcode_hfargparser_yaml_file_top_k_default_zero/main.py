# Imitates bigcode-project/bigcode-evaluation-harness main.py: HfArgumentParser over the argument
# dataclasses (here read from a YAML file by path with parse_yaml_file), then generation with
# vLLM (the harness's own loop is HF; this fork samples with vLLM and replays the samples).
from pathlib import Path

from transformers import HfArgumentParser
from vllm import LLM, SamplingParams

from bigcode_eval.arguments import EvalArguments, ModelArguments


def parse_args():
    parser = HfArgumentParser((ModelArguments, EvalArguments))
    return parser.parse_yaml_file(Path(__file__).parent / "eval.yaml")


def main():
    model_args, args = parse_args()
    llm = LLM(model=model_args.model, seed=args.seed, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(
        n=args.n_samples,
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_tokens=model_args.max_length_generation,
        stop=[args.eos],
    )
    prompts = [args.prefix + "def fibonacci(n):\n"]
    for out in llm.generate(prompts, params):
        print([c.text for c in out.outputs])


if __name__ == "__main__":
    main()
