# Imitates PeterGriffinJin/Search-R1 infer.py (the <search> loop against the local retriever), the policy asked through the replay server's token route
import re

import requests
from transformers import AutoTokenizer

model_id = "PeterJinGo/SearchR1-nq_hotpotqa_train-qwen2.5-7b-em-ppo"
question = "Mike Barnett negotiated many contracts including which player that went on to become general manager of CSKA Moscow of the Kontinental Hockey League?"
curr_search_template = "\n\n{output_text}<information>{search_results}</information>\n\n"
POLICY_URL = "http://127.0.0.1:8001/inference/v1/generate"
tokenizer = AutoTokenizer.from_pretrained(model_id)

prompt = f"""Answer the given question. After reasoning, if you find you lack some knowledge, you can call a search engine by <search> query </search>. Question: {question}\n"""


def get_query(text):
    pattern = re.compile(r"<search>(.*?)</search>", re.DOTALL)
    matches = pattern.findall(text)
    return matches[-1] if matches else None


def search(query: str):
    payload = {"queries": [query], "topk": 3, "return_scores": True}
    results = requests.post("http://127.0.0.1:8000/retrieve", json=payload).json()["result"]
    return "\n".join(doc["document"]["contents"] for doc in results[0])


def policy_step(text):
    body = {
        "model": model_id,
        "token_ids": tokenizer.encode(text),
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 1024, "stop": ["</search>"]},
    }
    out = requests.post(POLICY_URL, json=body).json()
    return tokenizer.decode(out["choices"][0]["token_ids"]), out["choices"][0].get("sampling_mask")


for _ in range(4):
    output_text, mask = policy_step(prompt)
    query = get_query(output_text + "</search>")
    if query is None:
        break
    prompt += curr_search_template.format(output_text=output_text, search_results=search(query))
print(prompt)
