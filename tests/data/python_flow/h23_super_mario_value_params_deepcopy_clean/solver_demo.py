# Imitates MARIO-Math-Reasoning/Super_MARIO mcts_math/solver.py (Solver.create_llm: llm_engine(config), a
# copy.deepcopy of the step params for value estimation with max_tokens = 1 and n = 1, then
# partial(local_generator, engine=...)); the user turned sampling replay on.
import copy
from functools import partial

from omegaconf import OmegaConf

from mcts_math.config import BaseConfig
from mcts_math.llms.local_llm_engine import llm_engine


def local_generator(prompts, sampling_params, engine):
    return engine.generate(prompts, sampling_params=sampling_params)


if __name__ == "__main__":
    config = OmegaConf.structured(BaseConfig)
    config = OmegaConf.merge(config, OmegaConf.load("configs/sbs_sft.yaml"))
    engine, generate_sampling_params = llm_engine(config)
    value_sampling_params = copy.deepcopy(generate_sampling_params)
    value_sampling_params.max_tokens = 1
    value_sampling_params.n = 1
    llm = partial(local_generator, engine=engine)
    generate_sampling_params.n = config.n_generate_sample * config.step_beam_width
    steps = llm(["Question: what is 2 + 3?\n"], generate_sampling_params)
    values = llm(["Question: what is 2 + 3?\nStep 1: 5"], value_sampling_params)
    print(steps[0].outputs[0].text, values[0].outputs[0].text)
