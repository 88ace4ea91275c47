# Imitates deepseek-ai/DeepSeek-Coder Evaluation/HumanEval/eval_instruct.py (generate_main) moved to vLLM
# as in Evaluation/LeetCode/vllm_inference.py; the engine's keywords come from utils/utils.py.
import argparse

from utils.utils import vllm_engine_kwargs
from vllm import LLM, SamplingParams


def generate_main(args):
    llm = LLM(**vllm_engine_kwargs(args.model, tp_size=args.tp))
    params = SamplingParams(temperature=0.8, top_p=0.95, top_k=50, max_tokens=1024)
    outputs = llm.generate(["def fib(n):"], params)
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="deepseek-ai/deepseek-coder-6.7b-instruct")
    parser.add_argument("--tp", type=int, default=1)
    generate_main(parser.parse_args())
