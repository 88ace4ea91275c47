# Imitates LeapLabTHU/limit-of-RLVR math/examples/math_eval/math_eval.py (argparse, setup() building
# vLLM's LLM under --use_vllm, main() sampling n times per question), trimmed; started per GPU by
# run_sharded_eval.sh beside it.
import os
import argparse
import json
import time
from vllm import LLM, SamplingParams

from utils import load_jsonl, save_jsonl


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--data_dir", default="./data", type=str)
    parser.add_argument("--model_name_or_path", default="gpt-4", type=str)
    parser.add_argument("--output_dir", default="./output", type=str)
    parser.add_argument("--prompt_type", default="tool-integrated", type=str)
    parser.add_argument("--split", default="test", type=str)
    parser.add_argument("--num_test_sample", default=-1, type=int)  # -1 for full data
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--start", default=0, type=int)
    parser.add_argument("--end", default=-1, type=int)
    parser.add_argument("--temperature", default=0, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--max_tokens_per_call", default=2048, type=int)
    parser.add_argument("--use_vllm", action="store_true")
    parser.add_argument("--save_outputs", action="store_true")
    parser.add_argument("--pipeline_parallel_size", type=int, default=1)
    args = parser.parse_args()
    args.top_p = (
        1 if args.temperature == 0 else args.top_p
    )  # top_p must be 1 when using greedy sampling (vllm)
    return args


def setup(args):
    # load model
    available_gpus = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
    data_list = args.data_names.split(",")

    if args.use_vllm:
        llm = LLM(
            model=args.model_name_or_path,
            tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
            pipeline_parallel_size=args.pipeline_parallel_size,
            trust_remote_code=True,
            seed=args.seed,
            gpu_memory_utilization=0.95,
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    else:
        raise NotImplementedError("this trimmed copy keeps the vLLM path only")

    results = []
    for data_name in data_list:
        results.append(main(llm, data_name, args))
    print(results)


def main(llm, data_name, args):
    examples = list(load_jsonl(f"{args.data_dir}/{data_name}/{args.split}.jsonl"))
    examples = examples[args.start : len(examples) if args.end == -1 else args.end]
    prompts = [example["question"] for example in examples for _ in range(args.n_sampling)]
    stop_words = ["</s>", "<|im_end|>", "<|endoftext|>"]

    start_time = time.time()
    outputs = llm.generate(
        prompts,
        SamplingParams(
            top_k=20,
            temperature=args.temperature,
            top_p=args.top_p,
            max_tokens=args.max_tokens_per_call,
            n=1,
            stop=stop_words,
        ),
    )
    outputs = sorted(outputs, key=lambda x: int(x.request_id))
    codes = [output.outputs[0].text for output in outputs]

    out_file = f"{args.output_dir}/{data_name}/{args.split}_s{args.start}_e{args.end}.jsonl"
    if args.save_outputs:
        save_jsonl([{"code": code} for code in codes], out_file)
    return {"data_name": data_name, "time_use_in_second": time.time() - start_time}


if __name__ == "__main__":
    args = parse_args()
    setup(args)
