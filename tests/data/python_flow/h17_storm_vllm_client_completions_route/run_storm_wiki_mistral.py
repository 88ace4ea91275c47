# Imitates stanford-oval/storm examples/storm_examples/run_storm_wiki_mistral.py
from argparse import ArgumentParser

from knowledge_storm.lm import VLLMClient


def main(args):
    mistral_kwargs = {
        "model": args.model,
        "port": args.port,
        "url": args.url,
        "stop": ("\n\n---",),
        "temperature": 0.8,
        "top_k": 40,
    }
    conv_simulator_lm = VLLMClient(max_tokens=500, **mistral_kwargs)
    question_asker_lm = VLLMClient(max_tokens=500, **mistral_kwargs)
    print(conv_simulator_lm._generate(args.topic), question_asker_lm._generate(args.topic))


if __name__ == "__main__":
    parser = ArgumentParser()
    parser.add_argument("--url", type=str, default="http://localhost")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--model", type=str, default="mistralai/Mistral-7B-Instruct-v0.2")
    parser.add_argument("--topic", type=str, default="Sampling distribution replay")
    main(parser.parse_args())
