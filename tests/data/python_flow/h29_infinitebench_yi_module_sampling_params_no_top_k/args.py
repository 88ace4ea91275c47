# Imitates OpenBMB/InfiniteBench src/args.py: the evaluation scripts' argparse options.
from argparse import ArgumentParser, Namespace


def parse_args() -> Namespace:
    p = ArgumentParser()
    p.add_argument("--task", type=str, required=True, help="Which task to use.")
    p.add_argument("--data_dir", type=str, default="../data", help="The directory of data.")
    p.add_argument("--output_dir", type=str, default="../results", help="Where to dump the prediction results.")
    p.add_argument("--model_path", type=str, help="The path of the model (in HuggingFace (HF) style).")
    p.add_argument(
        "--model_name",
        type=str,
        choices=["gpt4", "yarn-mistral", "kimi", "claude2", "rwkv", "yi-6b-200k", "yi-34b-200k", "chatglm3"],
        default="gpt4",
    )
    p.add_argument("--start_idx", type=int, default=0)
    p.add_argument("--stop_idx", type=int)
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--device", type=str, default="cuda")
    return p.parse_args()
