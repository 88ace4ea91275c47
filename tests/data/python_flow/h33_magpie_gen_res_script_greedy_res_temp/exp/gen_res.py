# Imitates magpie-align/magpie exp/gen_res.py (run by scripts/magpie-qwen2.5-7b.sh with --offline)
import os
import argparse
import json
from tqdm import tqdm
from utils import load_dataset_from_file, save_dataset, get_conversation_template
from vllm import LLM, SamplingParams

################
# Configurations
################
def get_args():
    # Experiment Settings
    parser = argparse.ArgumentParser(description="Response Generation Manager.")
    parser.add_argument("--model_path", type=str, default="meta-llama/Meta-Llama-3-8B-Instruct",
                        help="We will support more models in the future.")
    parser.add_argument("--input_file", type=str, default=None, help="Input dataset file name")
    parser.add_argument("--batch_size", type=int, default=128, help="Number of samples per batch")
    parser.add_argument("--checkpoint_every", type=int, default=20, help="Save checkpoint every n batches")
    parser.add_argument("--api", type=bool, default=False, help="Use API to generate responses")
    parser.add_argument("--api_url", type=str, default="https://api.together.xyz/v1/chat/completions", help="API URL")
    parser.add_argument("--api_key", type=str, default=None)
    parser.add_argument("--offline", action="store_false", dest="api", help="Use local vllm engine")

    # Generation Parameters
    parser.add_argument("--device", type=str, default="0")
    parser.add_argument("--tensor_parallel_size", type=int, default=1, help="Number of GPUs to use for tensor parallelism.")
    parser.add_argument("--gpu_memory_utilization", type=float, default=0.95)
    parser.add_argument("--max_tokens", type=int, default=2048)
    parser.add_argument("--max_model_len", type=int, default=2048)
    parser.add_argument("--temperature", type=float, default=0)
    parser.add_argument("--top_p", type=float, default=1.0)
    parser.add_argument("--top_k", type=int, default=50)
    parser.add_argument("--repetition_penalty", type=float, default=1.0)

    return parser.parse_args()

args = get_args()
print(f"Response Generation Manager. Arguments: {args}") # For logging

if args.input_file is None:
    raise ValueError("Please specify the input file path.")

# Constants for the local vllm engine
MODEL_NAME = args.model_path
INPUT_FILE_NAME = args.input_file
BATCH_SIZE = args.batch_size
CHECKPOINT_FILE = f"{INPUT_FILE_NAME[:INPUT_FILE_NAME.rfind('.')]}_checkpoint.json"
CHECKPOINT_EVERY = args.checkpoint_every
SAVED_FILE = f"{INPUT_FILE_NAME[:INPUT_FILE_NAME.rfind('.')]}_res.json"

# Obtain config from configs/model_configs.json
with open("../configs/model_configs.json", "r") as f:
    model_configs = json.load(f)
    model_config = model_configs[args.model_path]
    stop_tokens = model_config["stop_tokens"]
    stop_token_ids = model_config["stop_token_ids"]

# Process a batch of data using local vllm engine
def process_batch(batch, llm, params):
    prompts = []
    for item in batch:
        conv = get_conversation_template(MODEL_NAME)
        conv.append_message(conv.roles[0], item['instruction'])
        conv.append_message(conv.roles[1], None)
        prompts.append(conv.get_prompt())
    outputs = llm.generate(prompts, params)
    for i, item in enumerate(batch):
        item['response'] = outputs[i].outputs[0].text.strip()
        item['gen_response_configs'] = {
            "prompt": prompts[i],
            "temperature": args.temperature,
            "top_p": args.top_p,
            "repetition_penalty": args.repetition_penalty,
            "max_tokens": args.max_tokens,
            "stop_tokens": stop_tokens,
            "output_generator": MODEL_NAME,
        }
    return batch

# Generate outputs, update dataset in batches, and overwrite checkpoint
def generate_and_update(dataset, llm=None, params=None, api=False):
    num_batches = (len(dataset) + BATCH_SIZE - 1) // BATCH_SIZE
    for i in tqdm(range(num_batches)):
        start_idx = i * BATCH_SIZE
        end_idx = min((i + 1) * BATCH_SIZE, len(dataset))
        batch = dataset[start_idx:end_idx]
        if api:
            raise NotImplementedError("the Together API path is left out of this case")
        batch = process_batch(batch, llm, params)
        dataset[start_idx:end_idx] = batch
        if i % CHECKPOINT_EVERY == 0:
            save_dataset(dataset[:end_idx], CHECKPOINT_FILE)
    return dataset

# Main function to control workflow
def main():
    dataset = load_dataset_from_file(INPUT_FILE_NAME)

    if args.api:
        print("Start together API engine...")
        llm = None
        params = None
    else:
        # Set the device
        os.environ["CUDA_VISIBLE_DEVICES"] = args.device
        print("Start Local vllm engine...")
        llm =  LLM(model=MODEL_NAME,
            trust_remote_code=True,
            max_model_len = args.max_model_len, # limited by kv-cache
            tensor_parallel_size = args.tensor_parallel_size,
            gpu_memory_utilization = args.gpu_memory_utilization,
            return_sampling_mask = True,
            logprobs_mode = "processed_logprobs")

        params = SamplingParams(
            max_tokens=args.max_tokens,
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=args.top_k,
            repetition_penalty=args.repetition_penalty,
            stop_token_ids=stop_token_ids,
            )

    updated_dataset = generate_and_update(dataset, llm, params, api=args.api)
    save_dataset(updated_dataset, SAVED_FILE)
    os.remove(CHECKPOINT_FILE)
    print("Final dataset saved. Checkpoint removed.")

# Run the main function
if __name__ == "__main__":
    main()
