# Imitates RUC-NLPIR/FlashRAG examples/quick_start/simple_pipeline.py (Config from my_config.yaml, the
# generator from get_generator, one batch of questions).
import argparse

from config import Config
from utils import get_generator

parser = argparse.ArgumentParser()
parser.add_argument("--config_path", type=str, default="my_config.yaml")
args = parser.parse_args()

config = Config(args.config_path, {"save_note": "replay"})
generator = get_generator(config)
print(generator.generate(["Answer the question. Question: who wrote Hamlet?"]))
