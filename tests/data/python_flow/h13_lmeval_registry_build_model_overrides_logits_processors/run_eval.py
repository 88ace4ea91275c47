# Imitates EleutherAI/lm-evaluation-harness lm_eval/evaluator.py (simple_evaluate building the LM
# from the registry) as a user's eval script with keyword overrides.
from harness.models import build_model


def main():
    lm = build_model(
        "Qwen/Qwen2.5-7B-Instruct",
        max_model_len=4096,
        logits_processors=["my_eval.processors:ForceBoxedAnswer"],  # expect: RPL001
    )
    gen_kwargs = {"temperature": 0.6, "top_p": 0.95, "top_k": 20}
    outputs = lm._model_generate(["Question: 2 + 3 = ?\nAnswer:"], max_tokens=256, stop=["\n\n"], **gen_kwargs)
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()
