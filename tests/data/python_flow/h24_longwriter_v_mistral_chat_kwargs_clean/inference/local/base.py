# Imitates THU-KEG/LongWriter-V inference/local/base.py: the model and processor are loaded lazily.
class BaseModel:
    def __init__(self, model_path):
        self.model_path = model_path
        self.model = None
        self.processor = None
