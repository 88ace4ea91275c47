# Imitates NVIDIA-NeMo/Nemotron usage-cookbook/Nemotron-Nano-9B-v2/vllm_cookbook.ipynb ("Use the API" cell:
# OpenAI(base_url="http://127.0.0.1:8000/v1") and chat.completions.create to the server serve_nano.sh starts).
from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:8000/v1", api_key="null")

resp = client.chat.completions.create(  # expect: RPL301
    model="nvidia/NVIDIA-Nemotron-Nano-9B-v2",
    messages=[
        {"role": "system", "content": "/no_think"},
        {"role": "user", "content": "Give me 3 interesting facts about vLLM."},
    ],
    temperature=0.6,
    max_tokens=256,
    extra_body={"top_k": 20},
)
print(resp.choices[0].message.content)
