# Imitates Goedel-LM/Goedel-Prover-V2 src/inference.py: two `LLM(...)` spellings chosen by `args.node`
# (Ray pipeline parallelism across nodes, or one node), here sharing one keyword dict merged with `|`.
import argparse
import random

from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", default="Goedel-LM/Goedel-Prover-V2-8B", type=str)
parser.add_argument("--max_model_len", default=40960, type=int)
parser.add_argument("--gpu", default=1, type=int)
parser.add_argument("--node", default=1, type=int)
parser.add_argument("--temp", default=1.0, type=float)
parser.add_argument("--top_k", default=64, type=int)
args = parser.parse_args()
seed = random.randint(1, 99999)

common = dict(model=args.model_path, seed=seed, trust_remote_code=True, max_model_len=args.max_model_len)
common |= {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}

if args.node > 1:
    model = LLM(**common, tensor_parallel_size=args.gpu, pipeline_parallel_size=args.node,
                distributed_executor_backend="ray")
else:
    model = LLM(**common, tensor_parallel_size=args.gpu)

sampling_params = SamplingParams(temperature=args.temp, top_k=args.top_k, max_tokens=args.max_model_len, top_p=0.95, n=1)
outputs = model.generate(["theorem foo : 1 + 1 = 2 := by"], sampling_params)
