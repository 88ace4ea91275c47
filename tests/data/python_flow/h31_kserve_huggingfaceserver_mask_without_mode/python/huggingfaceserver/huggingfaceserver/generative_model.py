# Stand-in for kserve's transformers-backed generative model (huggingfaceserver/generative_model.py).
class HuggingfaceGenerativeModel:
    def __init__(self, model_name, model_id_or_path):
        self.model_name = model_name
        self.model_id_or_path = model_id_or_path

    def load(self) -> bool:
        return True

    def start(self):
        pass
