# Imitates euclidgame/Goedel-Prover eval/step1_inference.py (argparse defaults feeding LLM and SamplingParams),
# with a user's edit turning on replay and bounding top_k through a new --top_k flag with a default.
import argparse
import json

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--input_path", type=str)
parser.add_argument("--model_path", default="Goedel-LM/Goedel-Prover-SFT", type=str)
parser.add_argument("--n", default=32, type=int)
parser.add_argument("--gpu", default=1, type=int)
parser.add_argument("--temperature", default=1.0, type=float)
parser.add_argument("--top_k", default=40, type=int)
args = parser.parse_args()

with open(args.input_path) as file:
    data_list = [json.loads(line) for line in file]
model_inputs = ["Complete the following Lean 4 code:\n\n```lean4\n" + d["formal_statement"] for d in data_list]

model = LLM(
    model=args.model_path,
    seed=1,
    trust_remote_code=True,
    tensor_parallel_size=args.gpu,
    max_model_len=4096,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

sampling_params = SamplingParams(
    temperature=args.temperature,
    top_k=args.top_k,
    max_tokens=2048,
    top_p=0.95,
    n=args.n,
)
model_outputs = model.generate(model_inputs, sampling_params, use_tqdm=True)
