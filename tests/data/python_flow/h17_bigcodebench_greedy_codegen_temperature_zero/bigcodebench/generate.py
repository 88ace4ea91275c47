# Imitates bigcode-project/bigcodebench bigcodebench/generate.py (run_codegen + fire)
import fire

from bigcodebench.provider import make_model


def run_codegen(
    model: str,
    split: str,
    subset: str,
    n_samples: int = 1,
    temperature: float = 0.8,
    max_new_tokens: int = 1280,
    greedy: bool = False,
    backend: str = "vllm",
    tp: int = 1,
):
    if greedy:
        temperature = 0  # expect: RPL101
        n_samples = 1
    model_runner = make_model(
        model=model,
        backend=backend,
        subset=subset,
        split=split,
        temperature=temperature,
        max_new_tokens=max_new_tokens,
        tp=tp,
    )
    return model_runner.codegen(["def fib(n):\n"], do_sample=not greedy, num_samples=n_samples)


def main():
    fire.Fire(run_codegen)


if __name__ == "__main__":
    run_codegen(model="bigcode/starcoder2-15b-instruct-v0.1", split="instruct", subset="hard", greedy=True)
