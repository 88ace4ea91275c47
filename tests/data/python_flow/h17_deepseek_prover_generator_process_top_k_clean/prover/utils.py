# Imitates deepseek-ai/DeepSeek-Prover-V1.5 prover/utils.py (AttrDict, load_config)
import importlib.util


class AttrDict(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.__dict__ = self


def load_config(fname):
    spec = importlib.util.spec_from_file_location("config", fname)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return AttrDict({k: v for k, v in module.__dict__.items() if not k.startswith("_")})
