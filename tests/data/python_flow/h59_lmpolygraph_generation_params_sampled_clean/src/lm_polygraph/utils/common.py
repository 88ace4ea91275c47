# Imitates IINemo/lm-polygraph src/lm_polygraph/utils/common.py (load_external_module)
import importlib.util
import os


def load_external_module(path):
    module_name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
