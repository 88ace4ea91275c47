# Imitates AkariAsai/self-rag data_creation/generator/run_reward_vllm.py (the critic's reward labelling: argparse,
# LLM(model=gpt, download_dir=...), call_model's greedy SamplingParams over batches), with replay turned on.
import random
import torch
import numpy as np
import copy
from tqdm import tqdm
import json
import argparse
import jsonlines
from vllm import LLM, SamplingParams

ALPACA_PROMPT_DICT = {
    "prompt_input": (
        "Below is an instruction that describes a task, paired with an input that provides further context. "
        "Write a response that appropriately completes the request.\n\n"
        "### Instruction:\n{instruction}\n\n### Input:\n{input}\n\n### Response:"
    ),
}

PROMPT_DICT = {
    "relevance_instruction": (
        "When given instruction and evidence, evaluate whether the evidence is relevant to the instruction and provides valuable information for generating meaningful responses.\n"
        "Use a rating of [Relevant] to indicate relevance and usefulness, and [Irrelevant] to indicate irrelevance."
    ),
    "relevance_input": (
        "Task instruction: {instruction}\n"
        "Evidence: {evidence}"
    ),
}

seed = 633

torch.backends.cudnn.deterministic = True
random.seed(seed)
np.random.seed(seed)
torch.manual_seed(seed)
torch.cuda.manual_seed_all(seed)


def posprocess_output(answer, return_score=False):
    answer = answer.replace("</s>", "")
    answer = answer.replace("<unk>", "")
    answer = answer.replace("[PAD]", "")
    return answer


def call_model(prompts, model, max_new_tokens=50):
    sampling_params = SamplingParams(
        temperature=0.0, top_k=20, top_p=1.0, max_tokens=max_new_tokens)  # expect: RPL101
    preds = model.generate(prompts, sampling_params)
    preds = [pred.outputs[0].text.split("\n\n")[0] for pred in preds]
    postprocessed_preds = [posprocess_output(pred) for pred in preds]
    return postprocessed_preds, preds


def load_jsonlines(file):
    with jsonlines.open(file, 'r') as jsonl_f:
        lst = [obj for obj in jsonl_f]
    return lst


def process_data(input_data, inst_mode, input_mode, split="train"):
    if split == "train":
        prompt = ALPACA_PROMPT_DICT["prompt_input"].format_map(input_data)
        output = str(input_data["output"])
        return prompt, output
    else:
        instruction = PROMPT_DICT[inst_mode]
        input = PROMPT_DICT[input_mode].format_map(input_data)
        prompt = ALPACA_PROMPT_DICT["prompt_input"].format_map(
            {"instruction": instruction, "input": input})
        output = "None"
        return prompt, output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--model_name', type=str)
    parser.add_argument('--input_file', type=str)
    parser.add_argument('--split', type=str)
    parser.add_argument('--inst_mode', type=str, default="relevance_instruction")
    parser.add_argument('--input_mode', type=str, default="relevance_input")
    parser.add_argument('--max_new_tokens', type=int, default=15)
    parser.add_argument('--top_k', type=int, default=1,
                        help="# of the ctxs to be used")
    parser.add_argument('--result_fp', type=str)
    parser.add_argument('--task', type=str, default="relevance")
    parser.add_argument("--batch_size", type=int, default=10,
                        help="Batch size for question encoding")
    parser.add_argument('--download_dir', type=str, help="specify download dir",
                        default="/gscratch/h2lab/akari/model_cache")

    args = parser.parse_args()

    gpt = args.model_name
    model = LLM(model=gpt, download_dir=args.download_dir, max_model_len=2048,
                return_sampling_mask=True, logprobs_mode="processed_logprobs")

    input_path = args.input_file
    if input_path.endswith(".json") or ".json_" in input_path:
        input_data = json.load(open(input_path))
    else:
        input_data = load_jsonlines(input_path)

    if args.split == "train":
        input_data = [item for item in input_data if item["task"] == args.task]

    predicted_results = []
    for idx in tqdm(range(len(input_data) // args.batch_size)):
        batch = input_data[idx*args.batch_size:(idx+1)*args.batch_size]
        processed_batch = [process_data(
            item, inst_mode=args.inst_mode, input_mode=args.input_mode, split=args.split)[0] for item in batch]
        preds, raw_edits = call_model(
            processed_batch, model=model, max_new_tokens=args.max_new_tokens)
        for j, item in enumerate(batch):
            item["pred"] = preds[j]
            predicted_results.append(copy.deepcopy(item))
        with open(args.result_fp + "_tmp", "w") as outfile:
            json.dump(predicted_results, outfile)

    with open(args.result_fp, "w") as outfile:
        json.dump(predicted_results, outfile)


if __name__ == "__main__":
    main()
