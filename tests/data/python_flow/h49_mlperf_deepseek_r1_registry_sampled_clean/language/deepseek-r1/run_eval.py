"""Run the DeepSeek-R1 accuracy evaluation with the backend MLPERF_BACKEND names."""
import argparse
import json

from utils.backend_registry import get_backend_instance


def main():
    parser = argparse.ArgumentParser(description="DeepSeek-R1 evaluation")
    parser.add_argument("--input-file", type=str, required=True)
    parser.add_argument("--output-file", type=str, required=True)
    args = parser.parse_args()

    with open(args.input_file) as f:
        prompts = [json.loads(line)["text_input"] for line in f]

    backend = get_backend_instance('vllm')
    backend.initialize()
    results = backend.generate(text_prompts=prompts)

    with open(args.output_file, "w") as f:
        for result in results:
            f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
