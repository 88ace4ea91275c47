# Imitates open-compass/VLMEvalKit vlmeval/config.py (a registry of `partial(Qwen2VLChat, ...)` by model name).
from functools import partial

from vlmeval.vlm.qwen2_vl.model import Qwen2VLChat

qwen2vl_series = {
    "Qwen2.5-VL-7B-Instruct": partial(
        Qwen2VLChat,
        model_path="Qwen/Qwen2.5-VL-7B-Instruct",
        min_pixels=1280 * 28 * 28,
        max_pixels=16384 * 28 * 28,
        use_custom_prompt=False,
    ),
    "Qwen2.5-VL-7B-Instruct-vLLM": partial(
        Qwen2VLChat,
        model_path="Qwen/Qwen2.5-VL-7B-Instruct",
        min_pixels=1280 * 28 * 28,
        max_pixels=16384 * 28 * 28,
        use_custom_prompt=False,
        use_vllm=True,
    ),
}

supported_VLM = {}
supported_VLM.update(qwen2vl_series)
