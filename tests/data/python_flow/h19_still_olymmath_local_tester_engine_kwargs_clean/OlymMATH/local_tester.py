# Imitates RUCAIBox/Slow_Thinking_with_LLMs OlymMATH/local_tester.py (parse_arguments, run_evaluation)
import argparse
import datetime
import json
import os

from replay_settings import ENGINE_KWARGS
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams


def parse_arguments():
    parser = argparse.ArgumentParser(description="Run OlymMATH evaluation with vLLM")
    parser.add_argument("--model", type=str, required=True, help="Path to the model")
    parser.add_argument("--gpus", type=int, required=True, help="Number of GPUs to use")
    parser.add_argument("--min", type=int, required=True, help="Start index for problems (inclusive)")
    parser.add_argument("--max", type=int, required=True, help="End index for problems (exclusive)")
    parser.add_argument("--sample", type=int, default=10, help="Number of samples per question")
    parser.add_argument("--temperature", type=float, default=0.6, help="Sampling temperature")
    parser.add_argument("--max_tokens", type=int, default=32768, help="Maximum tokens for generation")
    parser.add_argument("--dataset", type=str, choices=["EN-EASY", "EN-HARD", "ZH-EASY", "ZH-HARD"], default="EN-HARD")
    return parser.parse_args()


def run_evaluation(args):
    MODEL = args.model
    GPUS = args.gpus
    MIN = args.min
    MAX = args.max
    SAMPLE = args.sample
    TEMPERATURE = args.temperature
    MAX_TOKENS = args.max_tokens
    DATASET = f"data/OlymMATH-{args.dataset}.jsonl"

    timestamp = datetime.datetime.now().strftime("%Y%m%d_%H%M%S")
    log_dir = f"logs_{timestamp}_{MODEL.replace('/', '_')}"
    os.makedirs(log_dir, exist_ok=True)

    with open(DATASET, "r", encoding="utf-8") as f:
        all_problems = [json.loads(line) for line in f]
    selected_problems = all_problems[MIN:MAX]

    print(f"Initializing VLLM with model {MODEL} on {GPUS} GPUs")
    llm = LLM(model=MODEL, tensor_parallel_size=GPUS, **ENGINE_KWARGS)
    tokenizer = AutoTokenizer.from_pretrained(MODEL)

    sampling_params = SamplingParams(
        temperature=TEMPERATURE,
        max_tokens=MAX_TOKENS,
        top_p=0.95,
        top_k=20,
        min_p=0.0,
    )

    en_prompts = []
    for problem_data in selected_problems:
        messages = [{"role": "user", "content": problem_data["problem"]}]
        prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        en_prompts.extend([prompt] * SAMPLE)

    outputs = llm.generate(en_prompts, sampling_params)
    with open(os.path.join(log_dir, "outputs.jsonl"), "w", encoding="utf-8") as f:
        for output in outputs:
            f.write(json.dumps({"text": output.outputs[0].text}) + "\n")


if __name__ == "__main__":
    run_evaluation(parse_arguments())
