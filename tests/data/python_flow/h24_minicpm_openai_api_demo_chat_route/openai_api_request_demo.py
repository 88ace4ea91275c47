# Imitates OpenBMB/MiniCPM demo/openai_api_demo/openai_api_request_demo.py: an OpenAI client on
# 127.0.0.1:8000 streaming chat completions.
from openai import OpenAI

base_url = "http://127.0.0.1:8000/v1/"
client = OpenAI(api_key="MiniCPM-2B", base_url=base_url)


def chat(use_stream=True):
    messages = [{"role": "user", "content": "tell me a story"}]
    response = client.chat.completions.create(  # expect: RPL301
        model="MiniCPM-2B",
        messages=messages,
        stream=use_stream,
        max_tokens=4096,
        temperature=0.8,
        top_p=0.8,
    )
    if use_stream:
        for chunk in response:
            print(chunk.choices[0].delta.content)
    else:
        print(response.choices[0].message.content)


if __name__ == "__main__":
    chat(use_stream=True)
