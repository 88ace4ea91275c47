# Imitates RUC-NLPIR/FlashRAG flashrag/config/config.py: a YAML file named by path, with a dict
# of overrides from the caller on top, read like a dict by the components.
import yaml


class Config:
    def __init__(self, config_file_path=None, config_dict=None):
        self.final_config = {"device": "cuda", "gpu_num": 1, "seed": 2024, "generator_batch_size": 4}
        if config_file_path is not None:
            with open(config_file_path) as f:
                self.final_config.update(yaml.safe_load(f))
        self.final_config.update(config_dict or {})

    def __getitem__(self, key):
        return self.final_config.get(key)

    def __contains__(self, key):
        return key in self.final_config

    def get(self, key, default=None):
        return self.final_config.get(key, default)
