import os

# disable v1 multiprocessing to avoid 'LLMEngine' object has no attribute 'model_executor' error in vLLM 0.11.0
os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"

import argparse
import random

from omegaconf import OmegaConf
from utils.constants import DEFAULT_CONFIG
from utils.vllm import init_vllm
from vllm import SamplingParams

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=str, default=None, help="Path to a YAML config file (overrides defaults)")
    args = parser.parse_args()

    if args.config is not None:
        config = OmegaConf.merge(DEFAULT_CONFIG, OmegaConf.load(args.config))
    else:
        config = DEFAULT_CONFIG

    prompt_template = open(config.paths.prompt_template_file).read()
    train_dataset = [eval(line) for line in open(config.paths.train_data_file)]

    vllm_model = init_vllm(config.training.seed, config)

    # sampling params
    sampling_params = SamplingParams(  # expect: RPL102
        temperature=config.training.temperature,
        top_p=config.training.top_p,
        max_tokens=config.training.max_tokens,
        stop=[str(s) for s in config.training.stop],
        include_stop_str_in_output=config.training.include_stop_str_in_output,
        min_tokens=config.training.min_tokens,
    )

    n_prompts_per_rollout_batch = config.training.rollout_batch_size // config.training.group_size
    for grpo_step in range(config.training.n_grpo_steps):
        cur_batch = random.sample(train_dataset, n_prompts_per_rollout_batch)
        rep_rollout_prompts = [
            prompt_template.replace("{question}", ex["problem"])
            for ex in cur_batch
            for _ in range(config.training.group_size)
        ]
        rollout_outputs = vllm_model.generate(rep_rollout_prompts, sampling_params)
        rollout_responses = [output.outputs[0].text for output in rollout_outputs]
