# Imitates RUC-NLPIR/FlashRAG examples/quick_start/simple_pipeline.py (config_dict over my_config.yaml, the
# generator from get_generator, a call that overrides max_tokens).
import os

from config import Config
from utils import get_generator

HERE = os.path.dirname(os.path.abspath(__file__))

config_dict = {"data_dir": "dataset/", "save_note": "replay"}
config = Config(os.path.join(HERE, "my_config.yaml"), config_dict)
generator = get_generator(config)
print(generator.generate(["Answer the question. Question: who wrote Hamlet?"], max_tokens=64))
