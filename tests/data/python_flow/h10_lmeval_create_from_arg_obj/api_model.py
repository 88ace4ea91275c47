# Imitates EleutherAI/lm-evaluation-harness lm_eval/api/model.py (TemplateLM.create_from_arg_obj)
from typing import Any


class TemplateLM:
    @classmethod
    def create_from_arg_obj(cls, arg_dict: dict[str, Any], additional_config: dict[str, Any] | None = None):
        additional_config = {} if additional_config is None else {k: v for k, v in additional_config.items() if v is not None}
        return cls(**arg_dict, **additional_config)
