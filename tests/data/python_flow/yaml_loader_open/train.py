# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py reading its engine
# arguments from a YAML file at run time, the mask added on top: the keys are not known, so no
# finding rests on an absent setting.
import yaml
from vllm import LLM


def load_engine_args(path):
    with open(path) as handle:
        return yaml.safe_load(handle)


llm = LLM(**load_engine_args("configs/engine.yaml"), return_sampling_mask=True)
