# Imitates TIGER-AI-Lab/TheoremQA data_loader.py: the few-shot prompt builder and the question loader run.py imports.
import json


def get_prompt(examples, form):
    prefix = "Question: {query}\nAnswer: Let's think step by step."
    prompt_no_input = "".join(f"Question: {q}\nAnswer: {a}\n\n" for q, a in examples)
    if form == "short":
        prefix = "Question: {query}\nAnswer:"
    return prompt_no_input, prefix


def load_dataset(path="theoremqa_test.json"):
    with open(path) as f:
        data = json.load(f)
    return [d["Question"] for d in data], [d["Answer"] for d in data]
