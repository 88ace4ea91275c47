"""What held-out round 32 (llama-cookbook's text2sql, Qwen2.5-Math's evaluation scripts) made the value
flow follow: the params `llm.get_default_sampling_params()` hands out, changed by attribute (the model's
generation config open, the attributes written known); a request helper whose caller is called from
both branches of an `if`, read once per call; a script in a folder below the program running it by its
bare name (`python3 -u math_eval.py` in `sh/eval.sh`, run from the folder above); and argparse's
abbreviated flags (`--data_name` of `--data_names`)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

ENGINE = 'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    found = json.loads(out.getvalue())
    return sorted((Path(f["filename"]).relative_to(tmp_path).as_posix(), f["location"]["row"], f["code"]) for f in found)


# `llm.get_default_sampling_params()`, then attributes written

DEFAULTS = (
    "import argparse\n"
    "from vllm import LLM\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--temperature", type=float, default=TEMP)\n'
    "args = parser.parse_args()\n" + ENGINE + "sp = llm.get_default_sampling_params()\n"
    "sp.max_tokens = 1024\n"
    "WRITES"
    'llm.generate(["hi"], sp)\n'
)


def test_a_temperature_written_on_the_default_params_is_the_request_s(tmp_path: Path) -> None:
    text = DEFAULTS.replace("TEMP", "0.0").replace("WRITES", "sp.temperature = args.temperature\nsp.top_k = 50\n")
    assert check(tmp_path, {"run.py": text}) == [("run.py", 4, "RPL101")]  # the argparse default the program runs with


def test_a_sampled_temperature_written_on_the_default_params_is_clean(tmp_path: Path) -> None:
    text = DEFAULTS.replace("TEMP", "0.6").replace("WRITES", "sp.temperature = args.temperature\nsp.top_k = 50\n")
    assert check(tmp_path, {"run.py": text}) == []


def test_the_default_params_leave_what_they_do_not_write_to_the_model_s_config(tmp_path: Path) -> None:
    # no top_k written: the model's generation_config.json (not in the tree) may set it; no RPL102
    text = DEFAULTS.replace("TEMP", "0.6").replace("WRITES", "sp.temperature = args.temperature\n")
    assert check(tmp_path, {"run.py": text}) == []


def test_a_clone_of_greedy_params_is_still_greedy(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM, SamplingParams\n"
        + ENGINE
        + "base = SamplingParams(temperature=0, top_k=5)\nllm.generate(['hi'], base.clone())\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 3, "RPL101")]


# a helper's caller called from both branches of an `if` (llama-cookbook's `collect_response_from_llama`)

BRANCHES = (
    "from vllm import LLM, SamplingParams\n"
    "def inference(llm, params, prompt):\n"
    "    return llm.chat([{'role': 'user', 'content': prompt}], params, use_tqdm=False)\n"
    "def collect(llm, params, prompts, knowledge=None):\n"
    "    return [inference(llm, params, p + (knowledge or '')) for p in prompts]\n"
    "if __name__ == '__main__':\n"
    "    import sys\n"
    "    " + ENGINE + "    params = SamplingParams(temperature=TEMP, top_k=50)\n"
    "    if sys.argv[1] == 'True':\n"
    "        collect(llm=llm, params=params, prompts=['a'], knowledge='k')\n"
    "    else:\n"
    "        collect(llm=llm, params=params, prompts=['a'])\n"
)


def test_a_request_two_calls_away_is_read_with_each_call_of_its_caller(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": BRANCHES.replace("TEMP", "0")}) == [("run.py", 9, "RPL101")]


def test_a_sampled_request_two_calls_away_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": BRANCHES.replace("TEMP", "0.7")}) == []


def test_each_caller_s_own_engine_receives_its_request(tmp_path: Path) -> None:
    # the second caller hands a plain engine: its greedy request is no replay request
    text = BRANCHES.replace("TEMP", "0.7").replace(
        "        collect(llm=llm, params=params, prompts=['a'])\n",
        "        collect(llm=LLM('m'), params=SamplingParams(temperature=0), prompts=['a'])\n",
    )
    assert check(tmp_path, {"run.py": text}) == []


# a script below the program that runs it by its bare name (Qwen2.5-Math's `sh/eval.sh`)

FIRE = (
    "import fire\n"
    "from vllm import LLM, SamplingParams\n"
    "def main(temperature: float = 0.7):\n"
    "    " + ENGINE + "    llm.generate(['hi'], SamplingParams(temperature=temperature, top_k=20))\n"
    "if __name__ == '__main__':\n"
    "    fire.Fire(main)\n"
)


def test_a_script_below_runs_the_program_above_by_its_bare_name(tmp_path: Path) -> None:
    files = {"math_eval.py": FIRE, "sh/eval.sh": "set -ex\npython3 -u math_eval.py --temperature 0\n"}
    assert check(tmp_path, files) == [("sh/eval.sh", 2, "RPL101")]


def test_a_program_beside_the_script_is_the_one_it_runs(tmp_path: Path) -> None:
    plain = FIRE.replace("return_sampling_mask=True, ", "")
    files = {"math_eval.py": FIRE, "sh/math_eval.py": plain, "sh/eval.sh": "python3 -u math_eval.py --temperature 0\n"}
    assert check(tmp_path, files) == []


def test_a_script_with_a_sampled_temperature_for_the_program_above_is_clean(tmp_path: Path) -> None:
    files = {"math_eval.py": FIRE, "sh/eval.sh": "python3 -u math_eval.py --temperature 0.6\n"}
    assert check(tmp_path, files) == []


# argparse's abbreviations

ABBREVIATED = (
    "import argparse\n"
    "from vllm import LLM, SamplingParams\n"
    "parser = argparse.ArgumentParser(MADE)\n"
    'parser.add_argument("--temperature", type=float, default=0.7)\n'
    "MORE"
    "args = parser.parse_args(['--temp', '0'])\n"
    + ENGINE
    + "llm.generate(['hi'], SamplingParams(temperature=args.temperature, top_k=20))\n"
)


def test_an_abbreviated_flag_gives_the_one_option_it_begins(tmp_path: Path) -> None:
    text = ABBREVIATED.replace("MADE", "").replace("MORE", "")
    assert check(tmp_path, {"run.py": text}) == [("run.py", 5, "RPL101")]


@pytest.mark.parametrize(
    ("made", "more"),
    [
        ("allow_abbrev=False", ""),  # argparse refuses `--temp`
        ("", 'parser.add_argument("--temp_scale", type=float, default=1.0)\n'),  # ambiguous
        ("", 'parser.add_argument("--temp", nargs="+", default=[1.0])\n'),  # its own option, not read
    ],
)
def test_an_abbreviation_argparse_does_not_take_leaves_the_option_unread(tmp_path: Path, made: str, more: str) -> None:
    text = ABBREVIATED.replace("MADE", made).replace("MORE", more)
    assert check(tmp_path, {"run.py": text}) == []
