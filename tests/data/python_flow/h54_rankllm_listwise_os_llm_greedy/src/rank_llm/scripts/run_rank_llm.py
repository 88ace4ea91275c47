import argparse

from rank_llm.rerank.listwise.rank_listwise_os_llm import RankListwiseOSLLM


def main(args):
    reranker = RankListwiseOSLLM(
        model=args.model_path,
        hf_home=args.hf_home,
        context_size=args.context_size,
        num_gpus=args.num_gpus,
        window_size=args.window_size,
    )
    prompts = [line.strip() for line in open(args.prompts_file)]
    for text, n_tokens in reranker.rerank_batch(prompts, window_size=args.window_size):
        print(n_tokens, text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", type=str, default="castorini/rank_zephyr_7b_v1_full")
    parser.add_argument("--hf_home", type=str, default="/root/.cache/huggingface")
    parser.add_argument("--context_size", type=int, default=4096)
    parser.add_argument("--num_gpus", type=int, default=1)
    parser.add_argument("--window_size", type=int, default=20)
    parser.add_argument("--prompts_file", type=str, default="prompts.txt")
    main(parser.parse_args())
