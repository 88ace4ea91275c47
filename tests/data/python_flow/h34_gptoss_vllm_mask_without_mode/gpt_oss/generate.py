# Imitates openai/gpt-oss gpt_oss/generate.py, run with the vLLM backend of gpt_oss/responses_api/inference/vllm.py
# Model parallel inference
# Note: This script is for demonstration purposes only.
import argparse

from gpt_oss.responses_api.inference.vllm import setup_model


def main(args):
    infer_next_token = setup_model(args.checkpoint)
    tokens = [200006, 17360, 200008, 12194, 200007]
    for i in range(args.limit):
        token = infer_next_token(tokens, temperature=args.temperature, new_request=(i == 0))
        tokens.append(token)
    print(tokens)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Text generation example")
    parser.add_argument("checkpoint", metavar="FILE", type=str, help="Path to the SafeTensors checkpoint")
    parser.add_argument("-t", "--temperature", metavar="TEMP", type=float, default=0.0, help="Sampling temperature")  # expect: RPL101
    parser.add_argument("-l", "--limit", metavar="LIMIT", type=int, default=100, help="Limit on the number of tokens")
    args = parser.parse_args()
    main(args)
