import litellm


def judge(question: str, answer: str) -> float:
    verdict = litellm.completion(
        model="hosted_vllm/meta-llama/Llama-3.1-70B-Instruct",
        api_base="http://judge-node.cluster.internal:8000/v1",
        messages=[{"role": "user", "content": f"Q: {question}\nA: {answer}\nCorrect? yes/no"}],
        temperature=0.0,
        presence_penalty=0.3,
    )
    return float(verdict.choices[0].message.content.strip().lower().startswith("yes"))
