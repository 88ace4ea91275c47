# Imitates huggingface/trl trl/generation/vllm_generation.py: the trainer calls the partial of
# another module with its own keywords.
from factory import make_llm


class Generator:
    def __init__(self, model_name, max_model_len=4096):
        self.llm = make_llm(model=model_name, max_model_len=max_model_len, max_num_seqs=64)


generator = Generator("Qwen/Qwen3-8B")
