# Imitates hiyouga/LLaMA-Factory src/llamafactory/chat/vllm_engine.py: optional settings read from
# a config object with getattr(obj, name, default).
from vllm import LLM


class InferConfig:
    model_name_or_path = "meta-llama/Llama-3.2-3B-Instruct"
    vllm_maxlen = 4096
    return_sampling_mask = True


def build_engine(config=InferConfig()):
    return LLM(
        model=config.model_name_or_path,
        max_model_len=config.vllm_maxlen,
        return_sampling_mask=config.return_sampling_mask,
        logprobs_mode=getattr(config, "logprobs_mode", "raw_logprobs"),  # expect: RPL003
    )


engine = build_engine()
