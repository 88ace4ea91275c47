# Imitates vllm-project/vllm examples/online_serving/openai_completion_client.py (client.models.list + completions.create)
import argparse

from openai import OpenAI

from launch_server import start_server

# Modify OpenAI's API key and API base to use vLLM's API server.
openai_api_key = "EMPTY"
openai_api_base = "http://localhost:8000/v1"


def parse_args():
    parser = argparse.ArgumentParser(description="Client for vLLM API server")
    parser.add_argument("--stream", action="store_true", help="Enable streaming response")
    return parser.parse_args()


def main(args):
    server = start_server()
    client = OpenAI(
        # defaults to os.environ.get("OPENAI_API_KEY")
        api_key=openai_api_key,
        base_url=openai_api_base,
    )

    models = client.models.list()
    model = models.data[0].id

    # Completion API
    completion = client.completions.create(  # expect: RPL301
        model=model,
        prompt="A robot may not injure a human being",
        echo=False,
        n=2,
        stream=args.stream,
        logprobs=3,
        temperature=0.8,
        extra_body={"top_k": 20},
    )
    print(completion)
    server.terminate()


if __name__ == "__main__":
    main(parse_args())
