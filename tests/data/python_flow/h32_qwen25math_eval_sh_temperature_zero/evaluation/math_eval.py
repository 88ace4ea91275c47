# Imitates QwenLM/Qwen2.5-Math evaluation/math_eval.py with evaluation/sh/eval.sh, trimmed; replay turned on.
import argparse
import os
import time

import sglang as sgl
from tqdm import tqdm
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

from data_loader import load_data
from utils import construct_prompt, set_seed


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--data_dir", default="./data", type=str)
    parser.add_argument("--model_name_or_path", default="gpt-4", type=str)
    parser.add_argument("--output_dir", default="./output", type=str)
    parser.add_argument("--prompt_type", default="tool-integrated", type=str)
    parser.add_argument("--split", default="test", type=str)
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--temperature", default=0, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--max_tokens_per_call", default=1024, type=int)
    parser.add_argument("--mem_fraction_static", default=0.65, type=float)
    parser.add_argument("--use_serving_engine", action="store_true", default=True)
    parser.add_argument("--engine_type", default="sglang", type=str, choices=["sglang", "vllm"])
    parser.add_argument("--pipeline_parallel_size", default=1, type=int)
    parser.add_argument("--apply_chat_template", action="store_true")
    args = parser.parse_args()
    args.top_p = (
        1 if args.temperature == 0 else args.top_p
    )  # top_p must be 1 when using greedy sampling (sglang)
    return args


def setup(args):
    # load model
    available_gpus = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
    if args.use_serving_engine:
        if args.engine_type == "sglang":
            print(f"Using SGLang engine")
            llm = sgl.Engine(
                model_path=args.model_name_or_path,
                tp_size=len(available_gpus),
                trust_remote_code=True,
                log_level="error",
                mem_fraction_static=args.mem_fraction_static,
            )
        else:
            print(f"Using VLLM engine")
            llm = LLM(
                model=args.model_name_or_path,
                tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
                pipeline_parallel_size=args.pipeline_parallel_size,
                trust_remote_code=True,
                max_model_len=2048,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )

    tokenizer = None
    if args.apply_chat_template:
        tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path, trust_remote_code=True)

    for data_name in args.data_names.split(","):
        main(llm, tokenizer, data_name, args)


def main(llm, tokenizer, data_name, args):
    examples = load_data(data_name, args.split, args.data_dir)
    input_prompts = [
        construct_prompt(example, data_name, args)
        for example in tqdm(examples)
        for _ in range(args.n_sampling)
    ]
    stop_words = ["</s>", "<|im_end|>", "<|endoftext|>"]

    start_time = time.time()
    prompts = input_prompts
    if args.engine_type == "sglang":
        outputs = llm.generate(
            prompts,
            sampling_params={
                "temperature": args.temperature,
                "top_p": args.top_p,
                "max_new_tokens": args.max_tokens_per_call,
                "n": 1,
                "stop": stop_words,
            },
        )
        outputs = [output["text"] for output in outputs]
    else:
        outputs = llm.generate(
            prompts,
            SamplingParams(
                temperature=args.temperature,
                top_k=20,
                top_p=args.top_p,
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
        outputs = sorted(outputs, key=lambda x: int(x.request_id))
        outputs = [output.outputs[0].text for output in outputs]
    print("time use:", time.time() - start_time, len(outputs))


if __name__ == "__main__":
    args = parse_args()
    set_seed(args.seed)
    setup(args)
