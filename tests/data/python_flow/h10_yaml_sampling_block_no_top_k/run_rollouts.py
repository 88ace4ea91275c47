# Imitates NVIDIA-NeMo/RL examples/run_grpo.py with examples/configs/grpo_math_1B.yaml (policy.generation block read from a YAML file)
from pathlib import Path

import yaml
from vllm import LLM, SamplingParams

CONFIG_PATH = Path(__file__).parent / "configs" / "grpo.yaml"


def main():
    cfg = yaml.safe_load(CONFIG_PATH.read_text())
    llm = LLM(model=cfg["policy"]["model_name"], **cfg["policy"]["vllm_kwargs"])
    sampling_params = SamplingParams(**cfg["generation"])  # expect: RPL102
    outputs = llm.generate(["Compute 15 * 4."], sampling_params)
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()
