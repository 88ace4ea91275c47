# Imitates magpie-align/magpie exp/utils.py (the helpers gen_res.py imports)
import json

from fastchat.model import get_conversation_template  # noqa: F401


def load_dataset_from_file(filename):
    with open(filename, "r") as f:
        if filename.endswith(".jsonl"):
            return [json.loads(line) for line in f]
        return json.load(f)


def save_dataset(data, filename, convert_to_jsonl=False):
    with open(filename, "w") as f:
        json.dump(data, f, indent=2)
