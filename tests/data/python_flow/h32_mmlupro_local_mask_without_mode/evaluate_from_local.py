# Imitates TIGER-AI-Lab/MMLU-Pro evaluate_from_local.py (vLLM offline CoT evaluation), trimmed; replay turned on.
import argparse
import logging
import os
import re
import time

import torch
import transformers
from datasets import load_dataset
from tqdm import tqdm
from vllm import LLM, SamplingParams

choices = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]
max_model_length = 2048
max_new_tokens = 1024


def load_mmlu_pro():
    dataset = load_dataset("TIGER-Lab/MMLU-Pro")
    return dataset["test"], dataset["validation"]


def load_model():
    llm = LLM(model=args.model, gpu_memory_utilization=float(args.gpu_util),
                tensor_parallel_size=torch.cuda.device_count(),
                max_model_len=max_model_length,
                trust_remote_code=True,
                return_sampling_mask=True)  # expect: RPL003
    sampling_params = SamplingParams(temperature=0, max_tokens=max_new_tokens,  # expect: RPL101  # expect: RPL102
                                        stop=["Question:"])
    tokenizer = transformers.AutoTokenizer.from_pretrained(args.model, trust_remote_code=True)
    return (llm, sampling_params), tokenizer


def format_cot_example(example):
    prompt = "Question:\n" + example["question"] + "\nOptions:\n"
    for i, opt in enumerate(example["options"]):
        prompt += "{}. {}\n".format(choices[i], opt)
    return prompt + "Answer: Let's think step by step."


def extract_answer(text):
    match = re.search(r"answer is \(?([A-J])\)?", text)
    return match.group(1) if match else None


def batch_inference(llm, sampling_params, inference_batch):
    start = time.time()
    outputs = llm.generate(inference_batch, sampling_params)
    logging.info(str(len(inference_batch)) + "size batch costing time: " + str(time.time() - start))
    response_batch = []
    pred_batch = []
    for output in outputs:
        generated_text = output.outputs[0].text
        response_batch.append(generated_text)
        pred_batch.append(extract_answer(generated_text))
    return pred_batch, response_batch


@torch.no_grad()
def eval_cot(subject, model, tokenizer, test_df):
    llm, sampling_params = model
    logging.info("evaluating " + subject)
    inference_batches = [format_cot_example(curr) for curr in tqdm(test_df)]
    return batch_inference(llm, sampling_params, inference_batches)


def main():
    model, tokenizer = load_model()
    full_test_df, _ = load_mmlu_pro()
    subjects = sorted({each["category"] for each in full_test_df})
    for subject in subjects:
        test_df = [each for each in full_test_df if each["category"] == subject]
        eval_cot(subject, model, tokenizer, test_df)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ntrain", "-k", type=int, default=5)
    parser.add_argument("--selected_subjects", "-sub", type=str, default="all")
    parser.add_argument("--save_dir", "-s", type=str, default="results")
    parser.add_argument("--gpu_util", "-gu", type=str, default="0.8")
    parser.add_argument("--model", "-m", type=str, default="meta-llama/Llama-2-7b-hf")

    args = parser.parse_args()
    os.makedirs(args.save_dir, exist_ok=True)
    main()
