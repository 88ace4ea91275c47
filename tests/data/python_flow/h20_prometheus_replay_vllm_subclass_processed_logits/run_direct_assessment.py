# Imitates prometheus-eval/prometheus-eval scripts/run_direct_assessment.py (a judge model graded over a dataset).
import argparse

from prometheus_eval.replay import ReplayVLLM


def main(args):
    model = ReplayVLLM(
        args.model,
        logprobs_mode="processed_logits",  # expect: RPL003
        tensor_parallel_size=args.num_gpus,
        max_model_len=4096,
    )
    params = {"temperature": 1.0, "top_p": 0.9, "top_k": 40, "max_tokens": 1024}
    outputs = model.completions(["###Instruction: grade this\n###Feedback: "], **params)
    print(outputs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="prometheus-eval/prometheus-7b-v2.0")
    parser.add_argument("--num_gpus", type=int, default=1)
    main(parser.parse_args())
