# Imitates princeton-nlp/HELMET arguments.py: generation settings as argparse defaults
# (do_sample False is greedy and overwrites temperature), a YAML config named by --config whose
# keys become the parser's defaults (simple_parsing's config_path in upstream).
import argparse
import ast

import yaml


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=str, default="configs/rag_vllm.yaml")
    parser.add_argument("--model_name_or_path", type=str, default="meta-llama/Llama-3.1-8B-Instruct")
    parser.add_argument("--use_vllm", action="store_true")
    parser.add_argument("--input_max_length", type=int, default=8192)
    parser.add_argument("--generation_max_length", type=int, default=20)
    parser.add_argument("--use_chat_template", type=ast.literal_eval, default=False)
    parser.add_argument("--stop_new_line", type=ast.literal_eval, default=False)
    parser.add_argument("--do_sample", type=ast.literal_eval, choices=[True, False], default=False)
    parser.add_argument("--generation_min_length", type=int, default=0)
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--top_p", type=float, default=1.0)
    parser.add_argument("--system_message", type=str, default=None)
    parser.add_argument("--seed", type=int, default=42)

    args, _ = parser.parse_known_args()
    with open(args.config) as f:
        parser.set_defaults(**yaml.safe_load(f))
    args = parser.parse_args()

    if not args.do_sample and args.temperature != 0.0:
        args.temperature = 0.0
    return args
