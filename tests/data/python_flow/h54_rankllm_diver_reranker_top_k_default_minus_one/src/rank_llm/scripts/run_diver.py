import argparse

from rank_llm.rerank.pointwise.diver_reranker import DiverPointwiseReranker


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", type=str, default="AQ-MedAI/Diver-Reranker-1.7B")
    parser.add_argument("--prompts_file", type=str, default="prompts.txt")
    args = parser.parse_args()
    reranker = DiverPointwiseReranker(model_path=args.model_path)
    prompts = [line.strip() for line in open(args.prompts_file)]
    for text in reranker.rerank_batch(prompts):
        print(text)


if __name__ == "__main__":
    main()
