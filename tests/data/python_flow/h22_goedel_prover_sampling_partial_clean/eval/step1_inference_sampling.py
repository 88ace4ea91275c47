# Imitates euclidgame/Goedel-Prover eval/step1_inference_sampling.py (known from its name; written after
# eval/step1_inference.py, read): the user fixes the prover's sampling keywords once with functools.partial.
import argparse
from functools import partial

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", default="Goedel-LM/Goedel-Prover-SFT", type=str)
parser.add_argument("--n", default=32, type=int)
args = parser.parse_args()

prover_params = partial(SamplingParams, top_p=0.95, top_k=32)

model = LLM(
    model=args.model_path,
    seed=1,
    trust_remote_code=True,
    max_model_len=4096,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
sampling_params = prover_params(temperature=1.0, max_tokens=2048, n=args.n)
outputs = model.generate(["Complete the following Lean 4 code:\n\n```lean4\ntheorem t : 2 + 2 = 4 := by"], sampling_params)
