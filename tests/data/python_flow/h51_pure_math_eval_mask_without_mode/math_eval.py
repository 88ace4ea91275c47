# Imitates CJReinforce/PURE eval/math_eval.py (started by eval/sh/eval.sh), trimmed to the vLLM path.
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--model_name_or_path", default="gpt-4", type=str)
    parser.add_argument("--output_dir", default="./output", type=str)
    parser.add_argument("--prompt_type", default="tool-integrated", type=str)
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--temperature", default=0, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--max_tokens_per_call", default=2048, type=int)
    parser.add_argument("--use_vllm", action="store_true")
    parser.add_argument("--pipeline_parallel_size", type=int, default=1)
    args = parser.parse_args()
    args.top_p = (
        1 if args.temperature == 0 else args.top_p
    )  # top_p must be 1 when using greedy sampling (vllm)
    return args


def setup(args):
    available_gpus = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
    data_list = args.data_names.split(",")

    if args.use_vllm:
        llm = LLM(
            model=args.model_name_or_path,
            tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
            pipeline_parallel_size=args.pipeline_parallel_size,
            trust_remote_code=True,
            max_model_len=2048,
            return_sampling_mask=True,  # expect: RPL003
        )
    else:
        raise NotImplementedError("the transformers path is left out")

    results = []
    for data_name in data_list:
        results.append(main(llm, data_name, args))
    print(results)


def main(llm, data_name, args):
    prompts = [f"Solve a problem from {data_name}." for _ in range(args.n_sampling)]
    stop_words = ["</s>", "<|im_end|>", "<|endoftext|>"]
    if "pure" in args.prompt_type:
        stop_words.append("\n\n\n")

    outputs = llm.generate(
        prompts,
        SamplingParams(
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=20,
            max_tokens=args.max_tokens_per_call,
            n=1,
            stop=stop_words,
            stop_token_ids=(
                [151645, 151643]
                if "qwen2" in args.model_name_or_path.lower()
                else None
            ),
        ),
    )
    return [output.outputs[0].text for output in outputs]


if __name__ == "__main__":
    args = parse_args()
    setup(args)
