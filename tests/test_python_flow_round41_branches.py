"""What held-out rounds 41-42 (h41_sqleval_vllm_runner_greedy_sql, h42_jieshen_vllm_infer_*) made the value
flow follow: a module's name bound by one import under an `if` (`if is_vllm_available(): from vllm import
LLM`), read in a function; and a shell script's run of an argparse program that spells short flags (`-g vllm`)
and gives `nargs="+"` options their words (`-f prompts/a.md prompts/b.md`). Each stop keeps the launch open."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

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


# a module's name imported under an `if` only: wherever it is read the import ran (else NameError)

GUARDED = """from pkg import is_vllm_available

{imports}


def infer(model):
    engine_args = {{"model": model, "return_sampling_mask": True}}
    return LLM(**engine_args)


infer("m")
"""


@pytest.mark.parametrize(
    "imports",
    [
        "if is_vllm_available():\n    from vllm import LLM, SamplingParams",
        "if is_vllm_available():\n    from vllm import LLM as LLM",
        "import os\nif os.environ.get('USE_VLLM'):\n    if is_vllm_available():\n        from vllm import LLM",
    ],
)
def test_a_name_imported_under_an_if_only_is_the_import_where_it_is_read(tmp_path: Path, imports: str) -> None:
    text = GUARDED.format(imports=imports)
    row = text.splitlines().index('    engine_args = {"model": model, "return_sampling_mask": True}') + 1
    assert check(tmp_path, {"infer.py": text}) == [("infer.py", row, "RPL003")]


@pytest.mark.parametrize(
    "imports",
    [
        "if is_vllm_available():\n    from vllm import LLM\nelse:\n    from pkg import LLM",  # another binding
        "if is_vllm_available():\n    from vllm import LLM\nelse:\n    LLM = None",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from vllm import LLM",  # never run
        "for _ in range(1):\n    from vllm import LLM",  # a loop's: not one binding
        "if is_vllm_available():\n    from vllm import LLM\nfrom pkg.engines import *",  # a star import may rebind it
        "if is_vllm_available():\n    from vllm import LLM\n\n\ndef use_other():\n    global LLM\n    LLM = object",
    ],
)
def test_a_name_bound_otherwise_too_stays_open(tmp_path: Path, imports: str) -> None:
    assert check(tmp_path, {"infer.py": GUARDED.format(imports=imports)}) == []


def test_the_processed_mode_under_a_guarded_import_stays_clean(tmp_path: Path) -> None:
    text = GUARDED.format(imports="if is_vllm_available():\n    from vllm import LLM").replace(
        '"return_sampling_mask": True}', '"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}'
    )
    assert check(tmp_path, {"infer.py": text}) == []


# a script's run with short flags and `nargs="+"` options (defog-ai/sql-eval's main.py)

MAIN = """import argparse

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-g", "--model_type", type=str, required=True)
    parser.add_argument("-m", "--model", type=str)
    parser.add_argument("-f", "--prompt_file", nargs="+", type=str, required=True)
    parser.add_argument("-k", "--keys", nargs="*", type=str)
    parser.add_argument("-qz", "--quantized", default=False, action="store_true")
    args = parser.parse_args()
    if args.model_type == "vllm":
        from runner import run_vllm_eval

        run_vllm_eval(args)
"""

RUNNER = """from vllm import LLM, SamplingParams


def run_vllm_eval(args):
    if not args.quantized:
        llm = LLM(model=args.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    else:
        llm = LLM(model=args.model, quantization="AWQ")
    params = SamplingParams(max_tokens=300, temperature=0, top_k=20)
    return llm.generate(["q"], params)
"""


@pytest.mark.parametrize(
    "words",
    [
        "-g vllm -f prompts/a.md -m defog/sqlcoder-7b-2",
        "-f prompts/a.md prompts/b.md -g vllm -m x",  # nargs="+" takes the words up to the next flag
        "-g=vllm -f prompts/a.md -k -m x",  # `-g=vllm`; nargs="*" may take none
        "--model_type vllm --prompt_file a.md b.md --keys a b",
    ],
)
def test_a_scripts_short_flags_and_lists_are_read(tmp_path: Path, words: str) -> None:
    files = {"main.py": MAIN, "runner.py": RUNNER, "run.sh": f"python main.py {words}\n"}
    assert check(tmp_path, files) == [("runner.py", 9, "RPL101")]


@pytest.mark.parametrize(
    "words",
    [
        "-g vllm -f a.md -m x -qz",  # the quantized engine: no replay
        "-g vllm -f a.md -m x --quantized",
        "-g vllm -f a.md -m x -zq",  # not a flag the parser shows: argparse refuses it (no run read)
    ],
)
def test_the_branch_the_script_takes_decides_the_engine(tmp_path: Path, words: str) -> None:
    files = {"main.py": MAIN, "runner.py": RUNNER, "run.sh": f"python main.py {words}\n"}
    assert check(tmp_path, files) == []


def test_a_flag_list_of_none_or_of_words_not_read_stays_open(tmp_path: Path) -> None:
    # `-f` (nargs="+") with no word: argparse refuses the run; `$EXTRA` may be any word, `-qz` too
    files = {"main.py": MAIN, "runner.py": RUNNER, "run.sh": "python main.py -g vllm -m x -f\npython main.py -g vllm -f $EXTRA\n"}
    assert check(tmp_path, files) == []
