# Imitates THU-KEG/LongWriter-V config.py: a module-level config object whose model_paths map a
# model family and size to a checkpoint.
class Config:
    model_paths = {
        "glm4": {"9b": "THUDM/glm-4v-9b"},
        "mistral": {"12b": "mistralai/Mistral-Nemo-Instruct-2407"},
    }


config = Config()
