# Imitates GAIR-NLP/weak-to-strong-reasoning src/prompt/__init__.py (prompt building, trimmed).
import json


def get_prompts(dev_set, template, prompt_type, answer_key, instruction_type):
    with open(f"data/{dev_set}/test.jsonl") as f:
        questions = [json.loads(line)['question'] for line in f]
    prefix = "" if prompt_type == "zero-shot" else f"[{template}]\n"
    return [f"{prefix}Question: {q}\nAnswer:" for q in questions]
