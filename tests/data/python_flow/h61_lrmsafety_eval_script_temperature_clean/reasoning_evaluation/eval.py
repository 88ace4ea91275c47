# Imitates thu-coai/LRM-Safety-Study reasoning_evaluation/eval.py (started by reasoning_evaluation/eval_math.sh)
import json
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams
import os
import argparse
import vllm.envs as envs
import pickle
from tqdm import tqdm
from utils.utils import set_seed
from utils.data_loader import load_data
from utils.parser import parse_question


def parse_list(arg):
    return arg.split(',')

def save_completions(completions, filepath):
    with open(filepath, 'wb') as file:
        pickle.dump(completions, file)

def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument('--model_name_or_path', type=str, default="./", help="model dir")
    parser.add_argument('--n_sampling', type=int, default=1, help="n for sampling")
    parser.add_argument("--k", type=int, default=1, help="Value of k for pass@k calculation")
    parser.add_argument("--data_dir", default="./data", type=str)
    parser.add_argument('--data_name', type=str, default="math", help='identify how to extract answer')
    parser.add_argument("--split", default="test", type=str)
    parser.add_argument('--start_idx', type=int, default=0, help="data[start:end]")
    parser.add_argument('--end_idx', type=int, default=-1, help="data[start:end], if -1, data[start:]")
    parser.add_argument("--temperature", default=0, type=float)
    parser.add_argument("--max_tokens", default=2048, type=int)
    parser.add_argument("--prompt_type", default="qwen-base", type=str)
    parser.add_argument("--surround_with_messages", action="store_true")
    parser.add_argument("--output_dir", default="./outputs", type=str)
    parser.add_argument('--stop', type=parse_list)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--top_k", default=-1, type=int)
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--completions_save_dir", default='./completions', type=str)
    args = parser.parse_args()

    args.top_p = 1 if args.temperature == 0 else args.top_p # top_p must be 1 when using greedy
    print(f"current stop list: {args.stop}")
    return args


def infer(args):
    model_name_or_path = args.model_name_or_path
    print(f"current eval model: {model_name_or_path}")

    n_sampling = args.n_sampling
    factor = 1
    for i in range(2, 65):
        if n_sampling % i == 0:
            factor = i
    generation_epoch = n_sampling // factor
    print(f"use n = {factor}, generation epoch is: {generation_epoch}")
    sampling_params = SamplingParams(temperature=args.temperature,
                                     max_tokens=args.max_tokens,
                                     n=factor,
                                     top_p=args.top_p,
                                     top_k=args.top_k,
                                     )

    examples = load_data(args.data_name, args.split, args.data_dir)
    if args.end_idx == -1:
        args.end_idx = len(examples)
    examples = examples[args.start_idx:args.end_idx]

    model_name = "/".join(args.model_name_or_path.split("/")[-3:])
    out_file_prefix = f'{args.split}_{args.prompt_type}_t{args.temperature}'
    os.makedirs(f'{args.completions_save_dir}/{model_name}/{args.data_name}', exist_ok=True)

    available_gpus = os.environ['CUDA_VISIBLE_DEVICES'].split(',')
    if len(available_gpus) == 1:
        envs.VLLM_HOST_IP="0.0.0.0" or "127.0.0.1"
    print(f"available_gpus: {available_gpus}")
    tokenizer = AutoTokenizer.from_pretrained(model_name_or_path, trust_remote_code=True)
    prompt_batch = []
    for example in tqdm(examples, total=len(examples)):
        question = parse_question(example, args.data_name)
        cur_prompt = question
        if args.surround_with_messages:
            messages = [{"role": "user", "content": cur_prompt}]
            cur_prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        prompt_batch.append(cur_prompt)

    llm = LLM(model=model_name_or_path,
              tensor_parallel_size=len(available_gpus),
              trust_remote_code=True,
            #   swap_space=60,
              gpu_memory_utilization=0.96,
              max_model_len=2048,
              return_sampling_mask=True,
              logprobs_mode="processed_logprobs",
              )

    file_outputs = []
    for cur_generation_epoch in range(generation_epoch):
        completions_save_file = f'{args.completions_save_dir}/{model_name}/{args.data_name}/{out_file_prefix}_k{args.n_sampling}_gen_round{cur_generation_epoch}.pkl'

        completions = llm.generate(prompt_batch, sampling_params)

        save_completions(completions, completions_save_file)
        for i in range(len(examples)):
            generated_responses = [completions[i].outputs[j].text for j in range(len(completions[i].outputs))]
            if cur_generation_epoch == 0:
                file_outputs.append({"question": parse_question(examples[i], args.data_name), "generated_responses": generated_responses})
            else:
                file_outputs[i]['generated_responses'] += generated_responses
    print("llm generate done")
    print(len(file_outputs))


if __name__ == "__main__":
    args = parse_args()
    set_seed(args.seed)
    infer(args)
