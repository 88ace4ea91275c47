# Imitates hiyouga/LLaMA-Factory src/llamafactory/chat/vllm_engine.py: getattr with a default on
# a config object built from a JSON file at run time, so the attribute may well be there.
import json
import sys
from types import SimpleNamespace

from vllm import LLM


def build_engine(model_args):
    return LLM(
        model=model_args.model_name_or_path,
        return_sampling_mask=True,
        logprobs_mode=getattr(model_args, "vllm_logprobs_mode", "raw_logprobs"),
    )


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        engine = build_engine(SimpleNamespace(**json.load(handle)))
