# Imitates PeterGriffinJin/Search-R1 infer.py (the <search> loop against the local retriever), the policy asked through the replay server
import re

import requests

question = "Mike Barnett negotiated many contracts including which player that went on to become general manager of CSKA Moscow of the Kontinental Hockey League?"
curr_search_template = "\n\n{output_text}<information>{search_results}</information>\n\n"
POLICY_URL = "http://127.0.0.1:8001/v1/chat/completions"
target_sequences = ["</search>", " </search>", "</search>\n", " </search>\n"]

prompt = f"""Answer the given question. You must conduct reasoning inside <think> and </think> first every time you get new information. \
After reasoning, if you find you lack some knowledge, you can call a search engine by <search> query </search>. Question: {question}\n"""


def get_query(text):
    pattern = re.compile(r"<search>(.*?)</search>", re.DOTALL)
    matches = pattern.findall(text)
    return matches[-1] if matches else None


def search(query: str):
    payload = {"queries": [query], "topk": 3, "return_scores": True}
    results = requests.post("http://127.0.0.1:8000/retrieve", json=payload).json()["result"]
    return "\n".join(doc["document"]["contents"] for doc in results[0])


def policy_step(messages):
    response = requests.post(  # expect: RPL301
        POLICY_URL,
        json={
            "model": "PeterJinGo/SearchR1-nq_hotpotqa_train-qwen2.5-7b-em-ppo",
            "messages": messages,
            "temperature": 0.7,
            "top_k": 20,
            "max_tokens": 1024,
            "stop": target_sequences,
        },
    )
    return response.json()["choices"][0]["message"]["content"]


messages = [{"role": "user", "content": prompt}]
for _ in range(4):
    output_text = policy_step(messages)
    query = get_query(output_text + "</search>")
    if query is None:
        break
    messages.append({"role": "assistant", "content": curr_search_template.format(output_text=output_text, search_results=search(query))})
print(messages[-1]["content"])
