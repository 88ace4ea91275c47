# Imitates hiyouga/LLaMA-Factory scripts/vllm_infer.py, whose `engine_args.update(vllm_config)`
# comes from the command line (`--vllm_config '{...}'` through `fire`).
import json

import fire
from vllm import LLM


def vllm_infer(model_name_or_path, vllm_config="{}", cutoff_len=2048, max_new_tokens=1024):
    engine_args = {
        "model": model_name_or_path,
        "trust_remote_code": True,
        "max_model_len": cutoff_len + max_new_tokens,
        "return_sampling_mask": True,
    }
    engine_args.update(json.loads(vllm_config))
    return LLM(**engine_args)


if __name__ == "__main__":
    fire.Fire(vllm_infer)
