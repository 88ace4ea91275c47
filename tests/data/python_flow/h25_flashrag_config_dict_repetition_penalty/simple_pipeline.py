# Imitates RUC-NLPIR/FlashRAG examples/quick_start/simple_pipeline.py (config_dict over my_config.yaml, the
# generator from get_generator); the user's generation_params add a repetition penalty.
import os

from config import Config
from utils import get_generator

HERE = os.path.dirname(os.path.abspath(__file__))

config_dict = {
    "data_dir": "dataset/",
    "framework": "vllm",
    "generation_params": {
        "max_tokens": 256,
        "temperature": 0.7,
        "top_k": 40,
        "repetition_penalty": 1.1,  # expect: RPL302
    },
}

config = Config(os.path.join(HERE, "my_config.yaml"), config_dict)
generator = get_generator(config)
print(generator.generate(["Answer the question based on the given document. Question: who wrote Hamlet?"]))
