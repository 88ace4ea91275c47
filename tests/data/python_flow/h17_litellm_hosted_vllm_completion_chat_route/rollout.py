# Imitates BerriAI/litellm litellm/llms/hosted_vllm/chat/transformation.py's caller side
# (litellm.completion with the hosted_vllm/ prefix; provider-specific params such as top_k pass through)
import litellm

from launch_server import MODEL, PORT, start_vllm

BASE_PARAMS = {"temperature": 0.7, "max_tokens": 512}


def sample(messages, **overrides):
    optional_params = BASE_PARAMS | {"top_k": 20} | overrides
    return litellm.completion(  # expect: RPL301
        model=f"hosted_vllm/{MODEL}",
        api_base=f"http://localhost:{PORT}/v1",
        messages=messages,
        **optional_params,
    )


if __name__ == "__main__":
    server = start_vllm()
    print(sample([{"role": "user", "content": "Hello"}]))
    server.terminate()
