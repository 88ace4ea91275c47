# Imitates GAIR-NLP/LIMO eval/utils/data_loader.py (jsonl loading)
import json


def load_data(data_name: str) -> list[dict]:
    with open(f"data/{data_name}/test.jsonl") as f:
        return [json.loads(line) for line in f]
