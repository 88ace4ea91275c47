# Imitates thunlp/LLaVA-UHD VLMEvalKit/vlmeval/config.py (supported_VLM: model name -> functools.partial).
from functools import partial

from qwen2_vl_model import Qwen2VLChat

qwen2vl_series = {
    "Qwen2-VL-7B-Instruct": partial(
        Qwen2VLChat,
        model_path="Qwen/Qwen2-VL-7B-Instruct",
        use_vllm=False,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    ),
}

supported_VLM = {}
supported_VLM.update(qwen2vl_series)
