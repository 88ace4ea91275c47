# Imitates princeton-nlp/SimPO on_policy_data_gen/decode.py (argparse, LLM + SamplingParams per seed).
import argparse
import json
import os

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser(description="Decode with vllm")
parser.add_argument("--data_dir", type=str, default="HuggingFaceH4/ultrafeedback_binarized")
parser.add_argument("--model", type=str, default="google/gemma-2-9b-it")
parser.add_argument("--temperature", type=float, default=0.8)
parser.add_argument("--top_p", type=float, default=0.95)
parser.add_argument("--top_k", type=int, default=64)
parser.add_argument("--max_tokens", type=int, default=4096)
parser.add_argument("--seed", type=int, default=42)
parser.add_argument("--output_dir", type=str, default="datasets/gemma2_ultrafeedback")
args = parser.parse_args()

llm = LLM(
    model=args.model,
    tensor_parallel_size=1,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
prompts = ["What is the capital of France?"]

sampling_params = SamplingParams(
    temperature=args.temperature,
    top_p=args.top_p,
    top_k=args.top_k,
    max_tokens=args.max_tokens,
    seed=args.seed,
)
outputs = llm.generate(prompts, sampling_params)
output_data = [{"prompt": p, "generated_text": o.outputs[0].text} for p, o in zip(prompts, outputs)]
output_file = f"output_{args.seed}.json"
os.makedirs(args.output_dir, exist_ok=True)
with open(os.path.join(args.output_dir, output_file), "w") as f:
    json.dump(output_data, f, indent=4)
