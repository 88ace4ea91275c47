# Imitates openai/simple-evals sampler setup and TRL's `--vllm_kwargs` JSON: the engine's
# keywords read with `json.load` from a file next to the script, one added in code.
import json
import os

from vllm import LLM

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "engine_config.json")) as handle:
    engine_kwargs = json.load(handle)

engine_kwargs["logprobs_mode"] = "raw_logprobs"  # expect: RPL003
llm = LLM(**engine_kwargs)
