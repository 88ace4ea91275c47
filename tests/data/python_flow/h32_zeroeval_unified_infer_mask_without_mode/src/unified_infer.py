# Imitates yuchenlin/ZeroEval src/unified_infer.py with scripts/_common_eval.sh, trimmed to the vLLM engine;
# replay turned on where the LLM is built.
import argparse
import os

from tqdm import tqdm

from unified_utils import load_eval_data, save_outputs


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument('--engine', default="vllm", type=str)
    parser.add_argument('--output_folder', default="./result_dirs/wild_bench/", type=str)
    parser.add_argument('--download_dir', default=None, type=str)
    parser.add_argument('--model_name', default=None, type=str)
    parser.add_argument('--model_pretty_name', default=None, type=str)
    parser.add_argument('--tokenizer_name', default="auto", type=str)
    parser.add_argument('--tensor_parallel_size', type=int, default=1)
    parser.add_argument('--dtype', type=str, default="auto")
    parser.add_argument('--tokenizer_mode', type=str, default="auto")
    parser.add_argument('--data_name', default="wild_bench", type=str)
    parser.add_argument('--batch_size', default=1, type=int)
    parser.add_argument('--num_outputs', default=1, type=int)
    parser.add_argument('--top_p',default=1, type=float)
    parser.add_argument('--temperature',default=0, type=float)
    parser.add_argument('--repetition_penalty',default=1, type=float)
    parser.add_argument('--max_tokens',default=7500, type=int)
    parser.add_argument('--max_model_len',default=-1, type=int)
    parser.add_argument('--gpu_memory_utilization', default=0.9, type=float)
    parser.add_argument('--overwrite', action='store_true')
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
        max_model_len = None if args.max_model_len == -1 else args.max_model_len
        llm = LLM(model=args.model_name, tokenizer=args.tokenizer_name, tensor_parallel_size=args.tensor_parallel_size,
                        download_dir=args.download_dir, dtype=args.dtype, tokenizer_mode=args.tokenizer_mode,
                        max_model_len=max_model_len, trust_remote_code=True,
                        gpu_memory_utilization=args.gpu_memory_utilization,
                        return_sampling_mask=True,  # expect: RPL003
                        )

    print("loading dataset!")
    id_strs, chat_history, model_inputs, metadata = load_eval_data(args)
    filepath = f"{args.output_folder}/{args.model_pretty_name}.json"
    os.makedirs(args.output_folder, exist_ok=True)

    outputs = []
    todo_inputs = model_inputs
    stop_words = []
    stop_token_ids = []

    if args.engine == "vllm":
        sampling_params = SamplingParams(top_p=args.top_p, temperature=args.temperature, repetition_penalty=args.repetition_penalty, max_tokens=args.max_tokens,  # expect: RPL102
                                         stop=stop_words, stop_token_ids=stop_token_ids, n=args.num_outputs)
        for cur_id in tqdm(range(0, len(todo_inputs), args.batch_size), desc=f"Generating {args.model_name}"):
            batch_inputs = todo_inputs[cur_id:cur_id+args.batch_size]
            batch_outputs = llm.generate(batch_inputs, sampling_params, use_tqdm=False)
            outputs.extend([[o.text for o in x.outputs] for x in batch_outputs])
            save_outputs(args, id_strs, outputs, chat_history, metadata, model_inputs, filepath)
        save_outputs(args, id_strs, outputs, chat_history, metadata, model_inputs, filepath)
