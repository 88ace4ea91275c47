# Imitates ScalingIntelligence/Archon src/archon/completions/gen_answers.py (a config JSON loaded by path,
# the first layer's generator asked for each question).
import json
import os

from generator import Generator

CONFIG_PATH = os.path.join(os.path.dirname(__file__), "configs", "archon-qwen-vllm-replay.json")


def load_config(path):
    with open(path) as f:
        return json.load(f)


def main():
    archon_config = load_config(CONFIG_PATH)
    generator = Generator(archon_config["layers"][0][0])
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "How many primes are below 100?"},
    ]
    print(generator.generate_from_messages(messages))


if __name__ == "__main__":
    main()
