# Imitates EleutherAI/lm-evaluation-harness lm_eval/api/registry.py: a registry of model classes,
# get_model instantiates one with the keywords it is given; build_model forwards its overrides.
from harness.models.vllm_causallms import VLLM

MODEL_REGISTRY = {"vllm": VLLM}


def get_model(model_name: str, **model_kwargs):
    return MODEL_REGISTRY[model_name](**model_kwargs)


def build_model(pretrained: str, **overrides):
    return get_model("vllm", pretrained=pretrained, **overrides)
