# Imitates MARIO-Math-Reasoning/Super_MARIO solver_demo.py (OmegaConf.structured(BaseConfig) merged with a YAML
# loaded by path, llm_engine(config)) and its create_local_llm path through local_vllm; the user turned sampling
# replay on and asks for one greedy answer per question.
from omegaconf import OmegaConf

from mcts_math.config import BaseConfig
from mcts_math.llms.local_llm_engine import llm_engine
from mcts_math.llms.local_llms import local_vllm

if __name__ == "__main__":
    config = OmegaConf.structured(BaseConfig)
    config = OmegaConf.merge(config, OmegaConf.load("configs/sbs_sft.yaml"))
    engine, sampling_params = llm_engine(config)
    answers = local_vllm("Question: what is 2 + 3?\n", engine, sampling_params, n=1, temperature=0.0)  # expect: RPL101
    print(answers[0])
