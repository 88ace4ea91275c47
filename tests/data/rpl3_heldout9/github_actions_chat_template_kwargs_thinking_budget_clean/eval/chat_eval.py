"""Answer accuracy with Qwen3's thinking mode; the budget goes to the chat template."""

from openai import OpenAI

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")

QUESTIONS = [("What is 17 * 23?", "391"), ("What is the capital of Australia?", "Canberra")]

correct = 0
for question, answer in QUESTIONS:
    response = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=[{"role": "user", "content": question}],
        temperature=0.6,
        top_p=0.95,
        max_tokens=4096,
        extra_body={
            "top_k": 20,
            "chat_template_kwargs": {"enable_thinking": True, "thinking_budget": 1024},
        },
    )
    correct += answer in (response.choices[0].message.content or "")
print(f"accuracy: {correct / len(QUESTIONS):.2f}")
