# Imitates modelscope/data-juicer data_juicer/config/config.py + data_juicer/ops/load.py:
# the recipe's `process:` list, each item {op_name: args}, built from the OPERATORS registry.
import os

import yaml

from generate_qa_from_text_mapper import GenerateQAFromTextMapper

OPERATORS = {'generate_qa_from_text_mapper': GenerateQAFromTextMapper}

RECIPE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'configs', 'qa_recipe.yaml')


def load_ops(process_list):
    ops = []
    for process in process_list:
        op_name, args = list(process.items())[0]
        ops.append(OPERATORS[op_name](**(args or {})))
    return ops


with open(RECIPE) as f:
    cfg = yaml.safe_load(f)

for op in load_ops(cfg['process']):
    print(op.process_single({'text': 'An example paragraph.'}))
