# Imitates microsoft/MInference experiments/infinite_bench/args.py: `--attn_type` defaults to "hf".
from argparse import ArgumentParser, Namespace

from minference import MInferenceConfig


def parse_args() -> Namespace:
    p = ArgumentParser()
    p.add_argument("--task", type=str, required=True)
    p.add_argument("--data_dir", type=str, default="../data")
    p.add_argument("--output_dir", type=str, default="../results")
    p.add_argument("--model_name_or_path", type=str, required=True)
    p.add_argument("--max_seq_length", type=int, default=2048)
    p.add_argument("--rewrite", action="store_true")
    p.add_argument("--num_eval_examples", type=int, default=-1)
    p.add_argument("--topk", type=int, default=-1)
    p.add_argument("--starting_layer", type=int, default=-1)
    p.add_argument("--topk_dims_file_path", type=str, default=None)
    p.add_argument("--trust_remote_code", action="store_true")
    p.add_argument("--tensor_parallel_size", type=int, default=1)
    p.add_argument(
        "--attn_type",
        type=str,
        choices=MInferenceConfig.get_available_attn_types(),
        default="hf",
    )
    p.add_argument("--kv_type", type=str, default="dense")
    return p.parse_args()
