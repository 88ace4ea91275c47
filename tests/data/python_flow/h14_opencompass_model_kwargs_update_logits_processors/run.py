# Imitates open-compass/opencompass run.py + opencompass/utils/build.py (build_model_from_cfg: pop `type`, call it)
import copy

from configs.models.vllm_qwen_replay import models


def build_model_from_cfg(model_cfg: dict):
    model_cfg = copy.deepcopy(model_cfg)
    model_cfg.pop("abbr", None)
    max_out_len = model_cfg.pop("max_out_len", None)
    model_type = model_cfg.pop("type")
    return model_type(**model_cfg), max_out_len


if __name__ == "__main__":
    for cfg in models:
        model, max_out_len = build_model_from_cfg(cfg)
        print(model.generate(["1 + 1 = ?"], max_out_len))
