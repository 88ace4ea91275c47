# Imitates OpenBMB/InfiniteBench src/eval_utils.py (trimmed): task token budgets and data loading.
import json

DATA_NAME_TO_MAX_NEW_TOKENS = {
    "passkey": 6,
    "number_string": 12,
    "kv_retrieval": 50,
    "longbook_qa_eng": 40,
    "math_find": 3,
}


def load_data(data_name: str, data_dir: str = "../data"):
    with open(f"{data_dir}/{data_name}.jsonl") as f:
        return [json.loads(line) for line in f]


def create_prompt(eg: dict, data_name: str, model_name: str, data_dir) -> str:
    return f"{eg['context']}\n\n{eg['input']}"


def get_answer(eg: dict, data_name: str):
    return eg["answer"]


def dump_jsonl(data, fname):
    with open(fname, "w", encoding="utf8") as fout:
        for line in data:
            fout.write(json.dumps(line, ensure_ascii=False) + "\n")
