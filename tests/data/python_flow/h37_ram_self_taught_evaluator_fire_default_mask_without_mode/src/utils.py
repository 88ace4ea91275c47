# Imitates facebookresearch/RAM projects/self_taught_evaluator/src/utils.py (trimmed: jsonl helpers, the judge
# prompt and the verdict parser).
import json


def load_from_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def save_to_jsonl(rows, path):
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def prepare_vllm_input(prompt, response_a, response_b, tokenizer):
    content = (
        "Please act as an impartial judge and evaluate the quality of the responses.\n\n"
        f"[User Question]\n{prompt}\n\n[Assistant A]\n{response_a}\n\n[Assistant B]\n{response_b}"
    )
    return tokenizer.apply_chat_template(
        [{"role": "user", "content": content}], tokenize=False, add_generation_prompt=True
    )


def parse_judgement(text):
    if "[[A]]" in text:
        return "A"
    if "[[B]]" in text:
        return "B"
    return None
