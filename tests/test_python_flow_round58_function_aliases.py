"""What held-out round 58 (h58_minictx_check_greedy_temperatures_default) made the value flow follow: a
module-level function called through a name an assignment binds to it (minictx-eval's `evaluation =
best_first_search` in `__main__`, then `evaluation(..., args.temperatures, ...)`), its arguments reaching
the request the function's callee builds. It stays silent when the name holds another function where
the call runs, and on the call an `if` makes of another function the name holds on its other branch
(minictx-eval's `evaluation = evaluation_API` for an API model: arguments that cannot bind the search)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in run(tmp_path))


def row(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


FUNCTIONS = """import argparse

import vllm


def generate_vllm(prompt, model, temperature, num_samples):
    params = vllm.SamplingParams(n=num_samples, temperature=temperature, top_k=20, max_tokens=64)
    return model.generate([prompt], params)


def load_model(name):
    return vllm.LLM(model=name, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def best_first_search(example, model, temperature, num_samples, max_iters=10):
    return generate_vllm(example, model, temperature, num_samples)


def evaluation_api(example, model, prompt_fn, temperature, num_samples, max_tokens=512):
    return prompt_fn(example)


def sample_once(example, model, temperature, num_samples):
    return generate_vllm(example, model, 1.0, num_samples)


"""

MAIN = """if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-name", required=True)
    parser.add_argument("--temperatures", type=float, default=0.0)
    parser.add_argument("--num-samples", type=int, default=1)
    args = parser.parse_args()
    model = load_model(args.model_name)
{body}"""

SCRIPT = "#!/bin/bash\npython check.py --model-name Qwen/Qwen2.5-0.5B --num-samples 1\n"


def program(body: str) -> dict[str, str]:
    return {"check.py": FUNCTIONS + MAIN.format(body=body), "run.sh": SCRIPT}


def test_a_local_alias_of_a_function_carries_the_argparse_default_to_its_request(tmp_path):
    files = program(
        "    evaluation = best_first_search\n"
        "    for example in ['a', 'b']:\n"
        "        out = evaluation(example, model, args.temperatures, args.num_samples, max_iters=5)\n"
    )
    assert check(tmp_path, files) == [("check.py", row(files["check.py"], '"--temperatures"'), "RPL101")]


def test_the_script_passing_a_temperature_keeps_the_alias_clean(tmp_path):
    files = program("    evaluation = best_first_search\n    evaluation('a', model, args.temperatures, args.num_samples)\n")
    files["run.sh"] = "#!/bin/bash\npython check.py --model-name Qwen/Qwen2.5-0.5B --num-samples 8 --temperatures 0.7\n"
    assert check(tmp_path, files) == []


def test_minictx_branches_bind_the_alias_to_the_search_or_the_api(tmp_path):
    """minictx-eval's own spelling: the model name picks the function, a flag picks the call; the
    API's call (its arguments cannot bind the search) is not read as the search's."""
    files = program(
        "    use_api = False\n"
        "    if 'GPT' in args.model_name:\n"
        "        use_api = True\n"
        "        evaluation = evaluation_api\n"
        "    else:\n"
        "        evaluation = best_first_search\n"
        "    for example in ['a']:\n"
        "        if use_api:\n"
        "            out = evaluation(example, model, str, args.temperatures, args.num_samples, max_tokens=256)\n"
        "        else:\n"
        "            out = evaluation(example, model, args.temperatures, args.num_samples, max_iters=5)\n"
    )
    assert check(tmp_path, files) == [("check.py", row(files["check.py"], '"--temperatures"'), "RPL101")]


def test_a_call_that_cannot_bind_the_function_is_not_its_call(tmp_path):
    # the search takes no `max_tokens`: Python raises `TypeError` before the request is built
    files = program("    evaluation = best_first_search\n    evaluation('a', model, args.temperatures, args.num_samples, max_tokens=64)\n")
    assert check(tmp_path, files) == []


def test_an_alias_rebound_to_another_function_before_the_call_stays_clean(tmp_path):
    files = program(
        "    evaluation = best_first_search\n"
        "    evaluation = sample_once\n"
        "    evaluation('a', model, args.temperatures, args.num_samples)\n"
    )
    assert check(tmp_path, files) == []
