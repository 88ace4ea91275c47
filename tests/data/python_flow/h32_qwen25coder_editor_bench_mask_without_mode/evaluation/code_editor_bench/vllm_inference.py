# Imitates QwenLM/Qwen2.5-Coder evaluation/code_editor_bench/vllm_inference.py, trimmed; replay turned on.
import argparse
import importlib
import sys
import time

import jsonlines
import torch
from tqdm import tqdm
from vllm import LLM, SamplingParams

from dataset import JsonlDataset, my_collate_fn

sys.path.append('./prompt_function/')


def evaluate(batch_prompts, llm, samplingparams):
    generation_config = samplingparams.__dict__
    batch_output = llm.generate(batch_prompts, samplingparams)

    return generation_config, batch_output


def main():
    parser = argparse.ArgumentParser(description="Run inference with the specified model and dataset.")
    parser.add_argument("--base_model", default="Model_Path", type=str, help="Path to the model.")
    parser.add_argument("--dataset", default="debug", type=str, help="Name of dataset.")
    parser.add_argument("--input_data_dir", default="Input.jsonl", type=str, help="Path to input data.")
    parser.add_argument("--output_data_dir", default="Output.jsonl", type=str, help="Path to output data.")
    parser.add_argument("--batch_size", default=16, type=int, help="Batch size for processing.")
    parser.add_argument("--num_of_sequences", default=20, type=int, help="Number of sequences to generate.")
    parser.add_argument("--num_gpus", default=4, type=int, help="Number of GPUs to use.")
    parser.add_argument("--prompt_type", default="zero", type=str, help="Type of Prompts, zero or three.")
    parser.add_argument("--start_idx", default=0, type=int, help="Start index for data processing.")
    parser.add_argument("--end_idx", default=-1, type=int, help="End index for data processing.")

    args = parser.parse_args()
    print(args)

    max_model_len = 2048
    frequency_penalty = 0.0
    presence_penalty = 0.0
    module = importlib.import_module(f'prompt_function.prompt_{args.dataset}')
    # Choose prompt function
    if 'deepseek' in args.base_model:
        model_choice = 'deepseek'
        group = 'group1'
    elif 'CodeQwen' in args.base_model:
        model_choice = 'codeqwen'
        group = 'group1'
    else:
        raise ValueError(f"Invalid model name: {args.base_model}")
    prompt_function = getattr(module, f"generate_prompt_{group}")  # Get the prompt function

    # Set hyperparameters
    if args.num_of_sequences == 1:
        samplingparams=SamplingParams(n=args.num_of_sequences, temperature=0.0, max_tokens=1024, frequency_penalty=frequency_penalty, presence_penalty=presence_penalty)
    else:
        samplingparams=SamplingParams(n=args.num_of_sequences, temperature=0.8, top_p=0.9, top_k=40, max_tokens=1024, frequency_penalty=frequency_penalty, presence_penalty=presence_penalty)

    input_data_path = args.input_data_dir + f"code_{args.dataset}_primary.jsonl"
    model_name = args.base_model.split('/')[-1].replace('-', '_').replace('.', '_')
    output_data_path = args.output_data_dir + f"code_{args.dataset}/{model_name}_{args.start_idx}_end.jsonl"
    output_data = jsonlines.open(output_data_path, mode='w', flush=True)

    end_idx = None if args.end_idx == -1 else args.end_idx
    dataset = JsonlDataset(input_data_path)[args.start_idx:end_idx]
    dataloader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size, shuffle=False, collate_fn=my_collate_fn)

    # Load model
    if len(dataloader) > 0:
        print("Loading model...")
        llm = LLM(model=args.base_model, trust_remote_code=True, tensor_parallel_size=args.num_gpus, max_model_len=max_model_len,
                  return_sampling_mask=True)  # expect: RPL003
        print("Model loaded.")

    start_time = time.time()

    # Inference
    for batch in tqdm(dataloader, desc="Inference"):
        batch_prompts = prompt_function(batch, model_choice, args.prompt_type)
        generation_config, batch_output = evaluate(batch_prompts, llm, samplingparams)  # Get output
        for idx, output in enumerate(batch_output):
            output_data.write({
                "problem_id": batch["idx"][idx].item(),
                "prompt": batch_prompts[idx],
                "code": [data.text for data in output.outputs],
            })

    print("Time used: ", time.time() - start_time)


if __name__ == '__main__':
    main()
