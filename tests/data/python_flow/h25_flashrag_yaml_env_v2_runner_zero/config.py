# Imitates RUC-NLPIR/FlashRAG flashrag/config/config.py (Config: basic_config.yaml beside it, the user's YAML
# and config_dict merged by _update_dict, the device set up from gpu_id); the user's edit exports the config's
# `env` mapping first.
import os
import random

import yaml

os.environ["TOKENIZERS_PARALLELISM"] = "false"


class Config:
    def __init__(self, config_file_path=None, config_dict={}):
        self.file_config = self._load_file_config(config_file_path)
        self.variable_config = config_dict
        self.external_config = self._merge_external_config()
        self.internal_config = self._get_internal_config()
        self.final_config = self._get_final_config()
        self._init_device()
        self._set_seed()

    def _load_file_config(self, config_file_path: str):
        file_config = dict()
        if config_file_path:
            with open(config_file_path, "r", encoding="utf-8") as f:
                file_config.update(yaml.load(f.read(), Loader=yaml.FullLoader))
        return file_config

    @staticmethod
    def _update_dict(old_dict: dict, new_dict: dict):
        same_keys = []
        for key, value in new_dict.items():
            if key in old_dict and isinstance(value, dict):
                same_keys.append(key)
        for key in same_keys:
            old_item = old_dict[key]
            new_item = new_dict[key]
            old_item.update(new_item)
            new_dict[key] = old_item

        old_dict.update(new_dict)
        return old_dict

    def _merge_external_config(self):
        external_config = dict()
        external_config = self._update_dict(external_config, self.file_config)
        external_config = self._update_dict(external_config, self.variable_config)
        return external_config

    def _get_internal_config(self):
        current_path = os.path.dirname(os.path.realpath(__file__))
        init_config_path = os.path.join(current_path, "basic_config.yaml")
        return self._load_file_config(init_config_path)

    def _get_final_config(self):
        final_config = dict()
        final_config = self._update_dict(final_config, self.internal_config)
        final_config = self._update_dict(final_config, self.external_config)
        return final_config

    def _init_device(self):
        for name, value in self.final_config.get("env", {}).items():
            os.environ[name] = str(value)
        gpu_id = self.final_config["gpu_id"]
        if gpu_id is not None:
            os.environ["CUDA_VISIBLE_DEVICES"] = str(gpu_id)
        try:
            import torch

            gpu_num = torch.cuda.device_count()
        except Exception:
            gpu_num = 0
        self.final_config["gpu_num"] = gpu_num
        self.final_config["device"] = "cuda" if gpu_num > 0 else "cpu"

    def _set_seed(self):
        random.seed(self.final_config["seed"])

    def __getitem__(self, item):
        return self.final_config.get(item)

    def __contains__(self, key):
        return key in self.final_config
