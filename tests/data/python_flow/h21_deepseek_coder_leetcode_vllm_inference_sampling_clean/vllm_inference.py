# Imitates deepseek-ai/DeepSeek-Coder Evaluation/LeetCode/vllm_inference.py (generate_batch / generate_main),
# with a user's edit that turns sampling distribution replay on and samples (clean).
import argparse
import json

from vllm import LLM, SamplingParams

SAMPLING_TEMPERATURE = 0.7


def args_temperature():
    return SAMPLING_TEMPERATURE


def generate_batch(examples, tokenizer, llm):
    prompts = [
        tokenizer.apply_chat_template([{"role": "user", "content": ex["prompt_sft"]}], tokenize=False, add_generation_prompt=True)
        for ex in examples
    ]
    sampling_params = SamplingParams(
        temperature=args_temperature(),
        top_k=40,
        max_tokens=1024,
        stop=None,
    )
    outputs = llm.generate(prompts, sampling_params)
    for i in range(len(examples)):
        examples[i]["output"] = outputs[i].outputs[0].text
    return examples


def generate_main(data_path, model_name_or_path, saved_path):
    examples = [json.loads(x) for x in open(data_path).readlines()]
    llm = LLM(
        model=model_name_or_path,
        pipeline_parallel_size=1,
        tensor_parallel_size=8,
        max_num_seqs=512,
        max_num_batched_tokens=8192,
        max_model_len=4096,
        gpu_memory_utilization=0.85,
        trust_remote_code=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    generated = generate_batch(examples, llm.get_tokenizer(), llm)
    with open(saved_path, "w", encoding="utf-8") as fw:
        for ex in generated:
            fw.write(json.dumps(ex) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_path", type=str, default="data/20240121-Jul.jsonl")
    parser.add_argument("--model_name_or_path", type=str, default="deepseek-ai/deepseek-coder-7b-instruct-v1.5")
    parser.add_argument("--saved_path", type=str, default="output/20240121-Jul.jsonl")
    args = parser.parse_args()
    generate_main(args.data_path, args.model_name_or_path, args.saved_path)
