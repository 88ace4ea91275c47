from openai import OpenAI

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")

reply = client.chat.completions.create(model="Qwen/Qwen2.5-1.5B-Instruct", messages=[{"role": "user", "content": "2+2?"}], temperature=1.0, extra_body={"top_k": 20})
print(reply.choices[0].message.content)
