# Imitates open-compass/VLMEvalKit run.py (the model built from `supported_VLM[model_name]()`, then asked per sample).
import argparse

from vlmeval.config import supported_VLM


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, nargs="+", default=["Qwen2.5-VL-7B-Instruct"])
    parser.add_argument("--data", type=str, nargs="+", default=["MMBench_DEV_EN"])
    return parser.parse_args()


def main():
    args = parse_args()
    for model_name in args.model:
        model = supported_VLM[model_name]()
        for dataset_name in args.data:
            message = [{"type": "text", "value": "Which option describes the image best? A. a cat B. a dog"}]
            print(model.generate_inner(message, dataset=dataset_name))


if __name__ == "__main__":
    main()
