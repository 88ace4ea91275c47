# Imitates RUC-NLPIR/FlashRAG flashrag/utils/utils.py (get_generator: the class looked up by name in the
# generator module, chosen by config["framework"]).
import importlib


def get_generator(config, **params):
    """Automatically select generator class based on config."""
    if config["framework"] == "vllm":
        return getattr(importlib.import_module("generator"), "VLLMGenerator")(config, **params)
    raise NotImplementedError(config["framework"])
