# Imitates GAIR-NLP/weak-to-strong-reasoning src/eval/__init__.py (scoring, trimmed).
import json


def get_results(output_file_name, dev_set, answer_key):
    with open(output_file_name) as f:
        rows = [json.loads(line) for line in f]
    correct = sum(1 for row in rows if answer_key in row['response'])
    print("{}: {}/{}".format(dev_set, correct, len(rows)))
