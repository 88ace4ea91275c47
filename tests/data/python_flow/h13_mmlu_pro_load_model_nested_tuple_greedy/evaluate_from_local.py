# Imitates TIGER-AI-Lab/MMLU-Pro evaluate_from_local.py: load_model returns
# ((llm, sampling_params, lora_request), tokenizer); eval_cot unpacks the inner tuple and
# batch_inference sends every batch with that one SamplingParams. This fork replays its samples.
import argparse
import json

import transformers
from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest

max_model_length = 4096
max_new_tokens = 2048


def load_model():
    llm = LLM(model=args.model, gpu_memory_utilization=float(args.gpu_util),
                tensor_parallel_size=1,
                max_model_len=max_model_length,
                trust_remote_code=True,
                enable_lora=True if args.lora_path else False,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs")
    sampling_params = SamplingParams(temperature=0, top_k=20, max_tokens=max_new_tokens,  # expect: RPL101
                                        stop=["Question:"])
    tokenizer = transformers.AutoTokenizer.from_pretrained(args.model, trust_remote_code=True)

    lora_request = None
    if args.lora_path:
        lora_request = LoRARequest(
            lora_name="lora",
            lora_path=args.lora_path,
            lora_int_id=1
        )

    return (llm, sampling_params, lora_request), tokenizer


def batch_inference(llm, sampling_params, lora_request, inference_batch):
    outputs = llm.generate(inference_batch, sampling_params, lora_request=lora_request)
    return [output.outputs[0].text for output in outputs]


def eval_cot(subject, model, tokenizer, test_df, output_path):
    llm, sampling_params, lora_request = model
    inference_batch = [row["question"] for row in test_df]
    responses = batch_inference(llm, sampling_params, lora_request, inference_batch)
    with open(output_path, "w") as fo:
        fo.write(json.dumps(list(zip(inference_batch, responses))))


def main():
    model, tokenizer = load_model()
    with open("data/test.json") as f:
        test_df = json.load(f)
    eval_cot("all", model, tokenizer, test_df, f"{args.save_dir}/all.json")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--save_dir", "-s", type=str, default="results")
    parser.add_argument("--lora_path", "-lp", type=str, default=None)
    parser.add_argument("--gpu_util", "-gu", type=str, default="0.8")
    parser.add_argument("--model", "-m", type=str, default="meta-llama/Llama-2-7b-hf")
    args = parser.parse_args()
    main()
