# Imitates facebookresearch/cruxeval inference/main.py (HfArgumentParser(EvalArguments) + add_argument, LLM(...));
# the user's edit turns replay on.
import json

from transformers import AutoTokenizer, HfArgumentParser
from vllm import LLM

from generation_arguments import EvalArguments
from generator import Generator


def parse_args():
    parser = HfArgumentParser(EvalArguments)
    parser.add_argument("--model", default="codeparrot/codeparrot-small")
    parser.add_argument("--tensor_parallel_size", type=int, default=1)
    parser.add_argument("--trust_remote_code", action="store_true")
    parser.add_argument("--max_length_generation", type=int, default=1024)
    parser.add_argument("--precision", type=str, default="bf16")
    parser.add_argument("--save_generations_path", type=str, default="generations.json")
    args = parser.parse_args()
    precision_map = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
    args.precision = precision_map[args.precision]
    return args


def main():
    args = parse_args()
    model = LLM(
        model=args.model,
        dtype=args.precision,
        trust_remote_code=args.trust_remote_code,
        gpu_memory_utilization=0.98,
        tensor_parallel_size=args.tensor_parallel_size,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    tokenizer = AutoTokenizer.from_pretrained(args.model, truncation_side="left", padding_side="right")
    generator = Generator(model, tokenizer, args)
    generations = generator.generate(["def f(x):\n    return x + 1\nassert f(??) == 17"])
    with open(args.save_generations_path, "w") as fp:
        json.dump(generations, fp)


if __name__ == "__main__":
    main()
