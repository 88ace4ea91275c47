# Imitates PKU-Alignment/align-anything align_anything/evaluation/benchmarks/*/ds_infer.py + utils/tools.py (read_eval_cfgs by path, dict_to_namedtuple)
import os
from collections import namedtuple

import yaml

from align_anything.evaluation.inference.vllm_inference import BaseInferencer_vllm


def read_eval_cfgs(task: str) -> dict:
    current_file_path = os.path.abspath(__file__)
    parent_path = os.path.dirname(os.path.dirname(current_file_path))
    yaml_path = os.path.join(parent_path, "configs", "evaluation", "benchmarks", f"{task}.yaml")
    with open(yaml_path, encoding="utf-8") as f:
        configs = yaml.safe_load(f)
    return configs


def dict_to_namedtuple(dic):
    def convert(value):
        if isinstance(value, dict):
            return dict_to_namedtuple(value)
        return value

    cfg = namedtuple("Config", dic.keys())
    return cfg(**{k: convert(v) for k, v in dic.items()})


def main():
    dict_configs = read_eval_cfgs("gsm8k")["default"]
    cfgs = dict_to_namedtuple(dict_configs)
    inferencer = BaseInferencer_vllm(model_cfgs=cfgs.model_cfgs, vllm_cfgs=cfgs.vllm_cfgs)
    print(inferencer.generation(["Natalia sold clips to 48 of her friends. How many?"]))


if __name__ == "__main__":
    main()
