# Imitates allenai/WildBench src/unified_infer.py (parse_args, the `--engine vllm` branch); the user turned replay on.
import argparse
import json
import os

import yaml

from tqdm import tqdm

from unified_utils import load_eval_data, save_outputs


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument('--engine', default="vllm", type=str)
    parser.add_argument('--output_folder', default="./result_dirs/wild_bench/", type=str)
    parser.add_argument('--download_dir', default=None, type=str)
    parser.add_argument('--model_name', default="meta-llama/Llama-3.1-8B-Instruct", type=str)
    parser.add_argument('--tokenizer_name', default="auto", type=str)
    parser.add_argument('--tensor_parallel_size', type=int, default=1)
    parser.add_argument('--dtype', type=str, default="auto")
    parser.add_argument('--tokenizer_mode', type=str, default="auto")
    parser.add_argument('--data_name', default="wild_bench", type=str)
    parser.add_argument('--batch_size', default=1, type=int)
    parser.add_argument('--num_outputs', default=1, type=int)
    parser.add_argument('--top_p',default=1, type=float)
    parser.add_argument('--temperature',default=0.5, type=float)
    parser.add_argument('--top_k',default=20, type=int)
    parser.add_argument('--repetition_penalty',default=1, type=float)
    parser.add_argument('--max_tokens',default=4096, type=int)
    parser.add_argument('--max_model_len',default=None, type=int)
    parser.add_argument('--start_index',default=0, type=int) # 0 means from the beginning of the list
    parser.add_argument('--end_index',default=-1, type=int) # -1 means to the end of the list
    parser.add_argument('--filepath',default="auto", type=str)
    parser.add_argument('--overwrite', action='store_true')
    parser.add_argument('--gpu_memory_utilization', default=0.9, type=float)
    parser.add_argument('--speculative_config_file', default=os.path.join(os.path.dirname(__file__), "..", "configs", "speculative.yaml"), type=str)
    return parser.parse_args()


def sanitize_args(args):
    if args.download_dir == "default":
        args.download_dir = None
    return args


if __name__ == "__main__":
    args = parse_args()
    args = sanitize_args(args)
    print("loading model!")
    if args.tokenizer_name == "auto":
        args.tokenizer_name = args.model_name
    if args.engine == "vllm":
        from vllm import LLM, SamplingParams
        with open(args.speculative_config_file) as f:
            speculative_config = yaml.safe_load(f)["speculative_config"]
        llm = LLM(model=args.model_name, tokenizer=args.tokenizer_name, tensor_parallel_size=args.tensor_parallel_size,
                        download_dir=args.download_dir, dtype=args.dtype, tokenizer_mode=args.tokenizer_mode,
                        max_model_len=args.max_model_len, trust_remote_code=True,
                        gpu_memory_utilization=args.gpu_memory_utilization,
                        return_sampling_mask=True,
                        logprobs_mode="processed_logprobs",
                        speculative_config=speculative_config,
                        )

    id_strs, chat_history, model_inputs, metadata = load_eval_data(args)
    filepath = f"{args.output_folder}/{args.model_name.split('/')[-1]}.json"
    outputs = []
    if os.path.exists(filepath) and not args.overwrite:
        with open(filepath) as f:
            outputs = [[item["output"]] for item in json.load(f)]
    todo_inputs = model_inputs[len(outputs):]
    stop_words = []
    stop_token_ids = []

    if args.engine == "vllm":
        sampling_params = SamplingParams(top_p=args.top_p, temperature=args.temperature, top_k=args.top_k, repetition_penalty=args.repetition_penalty, max_tokens=args.max_tokens,
                                         stop=stop_words, stop_token_ids=stop_token_ids, include_stop_str_in_output=False, n=args.num_outputs)
        for cur_id in tqdm(range(0, len(todo_inputs), args.batch_size), desc=f"Generating {args.model_name}"):
            batch_inputs = todo_inputs[cur_id:cur_id+args.batch_size]
            batch_outputs = llm.generate(batch_inputs, sampling_params, use_tqdm=False)
            outputs.extend([[o.text for o in x.outputs] for x in batch_outputs])
            save_outputs(args, id_strs, outputs, chat_history, metadata, model_inputs, filepath)
