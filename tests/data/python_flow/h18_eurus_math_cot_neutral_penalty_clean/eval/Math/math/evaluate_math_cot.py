# Imitates OpenBMB/Eurus eval/Math/math/evaluate_math_cot.py (module-level `args`, environment writes, `generate_sample_batch`)
import argparse
import os

import torch
from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--data_dir", "-d", type=str, default="./")
parser.add_argument("--save_dir", "-s", type=str, default="./")
parser.add_argument("--model", type=str, default="openbmb/Eurus-7b-kto")
parser.add_argument("--model_type", type=str, default="mistral")
args = parser.parse_args()

os.environ["NCCL_IGNORE_DISABLED_P2P"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "true"

SAMPLING_KWARGS = dict(
    temperature=0.8,
    top_k=40,
    presence_penalty=0.0,
)


def generate_sample_batch(question_list):
    llm = LLM(
        model=args.model,
        trust_remote_code=True,
        tensor_parallel_size=torch.cuda.device_count(),
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(max_tokens=1024,
                                    stop=["\n###\nProblem: "],
                                    **SAMPLING_KWARGS)
    outputs = llm.generate(question_list, sampling_params, use_tqdm=False)
    completions = [output.outputs[0].text for output in outputs]
    return completions


def run(args):
    problems = ["Compute $\\dbinom{8}{4}$.", "What is $1+2+\\cdots+10$?"]
    prompt = "Solve the following math problem step-by-step.\nPresent your final answer as \\boxed{Your Answer}.\n"
    return generate_sample_batch([prompt + p for p in problems])


if __name__ == "__main__":
    print(run(args))
