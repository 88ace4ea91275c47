import json


def load_jsonl(file):
    with open(file) as f:
        for line in f:
            yield json.loads(line)


def save_jsonl(samples, save_path):
    with open(save_path, "w") as f:
        for sample in samples:
            f.write(json.dumps(sample) + "\n")
