# Imitates hiyouga/LLaMA-Factory scripts/vllm_infer.py, whose `engine_args.update(vllm_config)`
# comes from the command line (`--vllm_config '{...}'` through `fire`): run as written, the
# default '{}' sets nothing, and the finding says it rests on that default (issue 27; the case
# was h3_update_unknown_open_clean while a JSON default kept the launch open).
import json

import fire
from vllm import LLM


def vllm_infer(model_name_or_path, vllm_config="{}", cutoff_len=2048, max_new_tokens=1024):
    engine_args = {
        "model": model_name_or_path,
        "trust_remote_code": True,
        "max_model_len": cutoff_len + max_new_tokens,
        "return_sampling_mask": True,  # expect: RPL003 "when vllm_config comes from --vllm_config, default '{}'"
    }
    engine_args.update(json.loads(vllm_config))
    return LLM(**engine_args)


if __name__ == "__main__":
    fire.Fire(vllm_infer)
