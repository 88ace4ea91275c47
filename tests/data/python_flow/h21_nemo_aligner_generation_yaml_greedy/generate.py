# Imitates NVIDIA/NeMo-Aligner examples/nlp/gpt/*.py (a YAML config read by path, its sampling_params
# block handed to generation), run through vLLM by the user.
import os

import yaml
from vllm import LLM, SamplingParams

CONF = os.path.join(os.path.dirname(__file__), "conf", "gpt_generate.yaml")


def main(conf_path=CONF):
    with open(conf_path) as f:
        cfg = yaml.safe_load(f)
    sp = dict(cfg["model"]["sampling_params"])
    sp.pop("use_greedy")
    llm = LLM(model=cfg["model"]["pretrained_checkpoint"], **cfg["vllm"])
    outputs = llm.generate(["Write a haiku about GPUs."], SamplingParams(**sp))
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()
