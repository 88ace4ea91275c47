# Imitates QwenLM/Qwen2.5-Math evaluation/math_eval.py (parse_args, setup, main's vllm branch)
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--model_name_or_path", default="Qwen/Qwen2.5-Math-7B-Instruct", type=str)
    parser.add_argument("--prompt_type", default="qwen25-math-cot", type=str)
    parser.add_argument("--temperature", default=0.6, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=0.95, type=float)
    parser.add_argument("--top_k", default=20, type=int)
    parser.add_argument("--max_tokens_per_call", default=2048, type=int)
    parser.add_argument("--pipeline_parallel_size", default=1, type=int)
    parser.add_argument("--engine_type", default="vllm", type=str, choices=["sglang", "vllm"])
    args = parser.parse_args()
    args.top_p = (
        1 if args.temperature == 0 else args.top_p
    )  # top_p must be 1 when using greedy sampling (sglang)
    args.top_k = -1 if args.temperature == 0 else args.top_k
    return args


def setup(args):
    available_gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")
    if args.engine_type == "sglang":
        import sglang as sgl

        llm = sgl.Engine(model_path=args.model_name_or_path, tp_size=len(available_gpus))
    else:
        llm = LLM(
            model=args.model_name_or_path,
            tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
            pipeline_parallel_size=args.pipeline_parallel_size,
            trust_remote_code=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    for data_name in args.data_names.split(","):
        main(llm, data_name, args)


def main(llm, data_name, args):
    stop_words = ["</s>", "<|im_end|>", "<|endoftext|>"]
    prompts = [f"{data_name}: question {i}" for i in range(4) for _ in range(args.n_sampling)]
    if args.engine_type == "sglang":
        outputs = llm.generate(
            prompts,
            sampling_params={"temperature": args.temperature, "top_p": args.top_p, "n": 1, "stop": stop_words},
        )
        return [output["text"] for output in outputs]
    outputs = llm.generate(
        prompts,
        SamplingParams(
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=args.top_k,
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
