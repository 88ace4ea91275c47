# Imitates xufangzhi/phi-Decoding (phi_decoding.py): foresight sampling with an offline LLM built from argparse
# options, a step-beam rollout SamplingParams inside the foresight loop.
import argparse
import json
import os

import numpy as np
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--model_id', type=str, default='llama3.1',
                        help="model id, please fill the exact model path in the code below")
    parser.add_argument('--data_path', type=str,
                        default='data/gsm_test.json', help='the test data path')
    parser.add_argument('--output_dir', type=str, default='./results/')
    parser.add_argument('--seed', type=int, default=0, help="random seed")
    parser.add_argument('--step_beam_size', type=int, default=4, help="step beam size")
    parser.add_argument('--num_rollout', type=int, default=4, help="number of rollout")
    parser.add_argument('--num_foresight', type=int, default=8, help="number of foresight")
    parser.add_argument('--file_name', type=str, default='250215-1', help="file name")
    parser.add_argument('--gpus', type=int, default=2, help="number of gpus")

    args = parser.parse_args()
    np.random.seed(args.seed)
    args.output_path = args.output_dir + args.file_name + '.json'
    if not os.path.exists(args.output_dir):
        os.makedirs(args.output_dir)
    if args.model_id == "llama3.1":
        PATH_TO_CONVERTED_WEIGHTS = "meta-llama/Llama-3.1-8B-Instruct"
    elif args.model_id == "qwen3B":
        PATH_TO_CONVERTED_WEIGHTS = "Qwen/Qwen2.5-3B-Instruct"
    elif args.model_id == "mistral":
        PATH_TO_CONVERTED_WEIGHTS = "mistralai/Mistral-7B-Instruct-v0.3"

    tokenizer = AutoTokenizer.from_pretrained(
        PATH_TO_CONVERTED_WEIGHTS, max_length=2048, trust_remote_code=True)
    if not tokenizer.pad_token:
        tokenizer.pad_token = tokenizer.eos_token
    stop_token = tokenizer.eos_token

    model = LLM(model=PATH_TO_CONVERTED_WEIGHTS, tensor_parallel_size=args.gpus,
                max_model_len=2048, trust_remote_code=True,
                return_sampling_mask=True, logprobs_mode="processed_logprobs")

    num_rollout = args.num_rollout
    num_foresight = args.num_foresight
    step_beam_size = args.step_beam_size

    with open(args.data_path) as file:
        test_data = json.load(file)

    system_prompt = "Please solve the following problem step by step.\n"
    with open(args.output_path, "w") as f:
        for i in range(len(test_data)):
            previous_steps_list = ["The reasoning steps are:\n\n" for _ in range(step_beam_size)]
            for T in range(num_foresight):
                chat = [
                    {'role': 'system', 'content': system_prompt},
                    {'role': 'user', 'content': 'The question: ' + test_data[i]['input']},
                    {'role': 'assistant', 'content': ''}
                ]
                inputs = tokenizer.apply_chat_template(chat, tokenize=False)
                inputs = inputs.replace(stop_token, "").strip()
                inputs_list = [inputs + previous_steps_list[beam_idx] for beam_idx in range(step_beam_size)]
                sampling_params = SamplingParams(  # expect: RPL102
                    max_tokens=1024, n=num_rollout, logprobs=0, temperature=0.6, stop=["\n", "<end_of_reasoning>"])

                outputs = model.generate(inputs_list, sampling_params)
                for ii in range(step_beam_size):
                    best = max(outputs[ii].outputs, key=lambda o: o.cumulative_logprob / (len(o.token_ids) + 1e-8))
                    previous_steps_list[ii] = previous_steps_list[ii] + best.text.strip() + "\n"
            f.write(json.dumps({'question_idx': i, 'steps': previous_steps_list}) + "\n")
