# Imitates Agent-RL/ReCall scripts/evaluation/run_eval.py (the eval config YAML loaded by path, the
# pipeline's generator built from it, the command line's overrides applied with `update`).
import argparse
import os

import yaml

from generator import VLLMGenerator

CONFIG_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "eval_config.yaml")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset_name", type=str, default="musique")
    parser.add_argument("--split", type=str, default="dev")
    args = parser.parse_args()

    with open(CONFIG_PATH) as f:
        config = yaml.safe_load(f)
    config.update({"dataset_name": args.dataset_name, "split": args.split})

    generator = VLLMGenerator(config)
    questions = ["Who directed the film in which the author of The Shining appears?"]
    print(generator.generate(questions))


if __name__ == "__main__":
    main()
