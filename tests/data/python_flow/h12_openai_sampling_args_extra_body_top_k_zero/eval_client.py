# Imitates PrimeIntellect-ai/verifiers verifiers/legacy/scripts/eval.py (merge_sampling_args: a
# `sampling_args` dict with temperature / max_tokens) and
# verifiers/legacy/clients/openai_chat_completions_token_client.py (vLLM-only fields sent in
# `sampling_args["extra_body"]`, spread into `chat.completions.create`).
from openai import OpenAI
from server import MODEL, start_server


def merge_sampling_args(sampling_args, max_tokens=None, temperature=None):
    merged = dict(sampling_args or {})
    if max_tokens is not None:
        merged["max_tokens"] = max_tokens
    if temperature is not None:
        merged["temperature"] = temperature
    return merged


def main():
    server = start_server()
    client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")
    sampling_args = merge_sampling_args(
        {
            "extra_body": {
                "top_k": 0,  # expect: RPL102
                "skip_special_tokens": False,
            }
        },
        max_tokens=1024,
        temperature=1.0,
    )
    response = client.chat.completions.create(  # expect: RPL301
        model=MODEL,
        messages=[{"role": "user", "content": "What is 17 * 23?"}],
        **sampling_args,
    )
    print(response.choices[0].message.content)
    server.terminate()


if __name__ == "__main__":
    main()
