# Imitates EleutherAI/lm-evaluation-harness lm_eval/evaluator.py (simple_evaluate: lm = VLLM.create_from_arg_obj(model_args, {...}))
from vllm_lm import VLLM


def main():
    model_args = {
        "pretrained": "Qwen/Qwen2.5-Math-7B",
        "max_length": 4096,
        "return_sampling_mask": True,  # expect: RPL003
    }
    lm = VLLM.create_from_arg_obj(model_args, {"batch_size": 8, "max_batch_size": None, "device": None})
    print(lm.generate_until(["1 + 1 ="]))


if __name__ == "__main__":
    main()
