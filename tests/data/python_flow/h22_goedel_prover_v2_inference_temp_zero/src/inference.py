# Imitates Goedel-LM/Goedel-Prover-V2 src/inference.py (sean-lamont's copy read): argparse with
# `--temp`, `LLM(...)` chosen by `args.node`, `SamplingParams(temperature=args.temp, ...)`; a user's edit
# turns replay on and makes greedy the default for the correction rounds.
import argparse
import random

from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

from utils import *  # noqa: F403

parser = argparse.ArgumentParser()
parser.add_argument("--input_path", default="", type=str)
parser.add_argument("--model_path", default="Goedel-LM/Goedel-Prover-V2-8B", type=str)
parser.add_argument("--max_model_len", default=40960, type=int)
parser.add_argument("--gpu", default=1, type=int)
parser.add_argument("--node", default=1, type=int)
parser.add_argument("--temp", default=0.0, type=float)  # expect: RPL101
args = parser.parse_args()
seed = random.randint(1, 99999)

tokenizer = AutoTokenizer.from_pretrained(args.model_path, trust_remote_code=True)
handler = DeepSeekCoTHandler()  # noqa: F405

replay = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
if args.node > 1:
    model = LLM(model=args.model_path, seed=seed, trust_remote_code=True, max_model_len=args.max_model_len,
                tensor_parallel_size=args.gpu, pipeline_parallel_size=args.node,
                distributed_executor_backend="ray", **replay)
else:
    model = LLM(model=args.model_path, seed=seed, trust_remote_code=True, max_model_len=args.max_model_len,
                tensor_parallel_size=args.gpu, **replay)

sampling_params = SamplingParams(
    temperature=args.temp,
    max_tokens=args.max_model_len,
    top_p=0.95,
    top_k=20,
    n=1,
)

prompt, _ = handler.prover_inference("theorem foo : 1 + 1 = 2 := by sorry", tokenizer)
outputs = model.generate([prompt], sampling_params)
