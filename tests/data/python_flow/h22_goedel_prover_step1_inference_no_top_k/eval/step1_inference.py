# Imitates euclidgame/Goedel-Prover eval/step1_inference.py (argparse, one LLM, SamplingParams to generate),
# with a user's edit turning on sampling distribution replay for the prover's rollouts.
import argparse
import json

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--input_path", type=str)
parser.add_argument("--model_path", default="Goedel-LM/Goedel-Prover-SFT", type=str)
parser.add_argument("--output_dir", type=str)
parser.add_argument("--n", default=32, type=int)
parser.add_argument("--gpu", default=1, type=int)
args = parser.parse_args()

LEAN4_DEFAULT_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\n"

with open(args.input_path) as file:
    data_list = [json.loads(line) for line in file]

model_inputs = [
    "Complete the following Lean 4 code:\n\n```lean4\n{header}{formal_statement}".format(
        header=data.get("header", LEAN4_DEFAULT_HEADER),
        formal_statement=data["formal_statement"],
    )
    for data in data_list
]

model = LLM(
    model=args.model_path,
    seed=1,
    trust_remote_code=True,
    tensor_parallel_size=args.gpu,
    max_model_len=4096,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

sampling_params = SamplingParams(  # expect: RPL102
    temperature=1.0,
    max_tokens=2048,
    top_p=0.95,
    n=args.n,
)

model_outputs = model.generate(model_inputs, sampling_params, use_tqdm=True)
for data, output in zip(data_list, model_outputs):
    data["model_outputs"] = [o.text for o in output.outputs]
