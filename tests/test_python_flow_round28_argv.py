"""What held-out round 28 made the value flow follow where the engine's words travel through argv
(two missed RPL003 findings).

gorilla/BFCL's entry point extends `sys.argv` before `parse_args()`: argparse reads the words the
program adds after those it is run with, and keeps an option's last value, so they decide those
options whatever the run gives (`sys.argv = [prog, ...]` and `sys.argv[1:] = [...]` decide every
option). A change under a branch not known, of words from outside, or after the parse, decides
nothing; one under a branch decided against never runs.

llm-compressor's e2e test runs `run_vllm.py` in a second Python with `json.dumps(llm_kwargs)` on its
command line, read there by `json.loads(sys.argv[1])` and spread into `LLM`: the keys are the
test's dict's, each decided where the dict writes it. Keywords from run time, a run of another
program, or runs that disagree leave the engine open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ENTRY = (
    "import argparse\n"
    "import os\n"
    "import sys\n"
    "\n"
    "from vllm import LLM\n"
    "\n"
    "DEBUG = False\n"
    "\n"
    "\n"
    "def get_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model', default='m')\n"
    "    parser.add_argument('--logprobs-mode', default='{default}')\n"
    "    return parser.parse_args()\n"
    "\n"
    "\n"
    "def main(args):\n"
    "    return LLM(model=args.model, return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    {change}\n"
    "    main(get_args())\n"
)
CHANGE_LINE = 22
DEFAULT_LINE = 13


def entry(change: str, default: str = "processed_logprobs") -> str:
    return ENTRY.replace("{default}", default).replace("{change}", change)


@pytest.mark.parametrize(
    "change",
    [
        "sys.argv.extend(['--logprobs-mode', 'raw_logprobs'])",
        "sys.argv += ['--logprobs-mode=raw_logprobs']",
        "sys.argv.append('--logprobs-mode=raw_logprobs')",
        "sys.argv[1:] = ['--logprobs-mode', 'raw_logprobs']",
        "sys.argv = [sys.argv[0], '--model', 'm', '--logprobs-mode', 'raw_logprobs']",
        "sys.argv = [sys.argv[0]] + ['--logprobs-mode', 'raw_logprobs']",
    ],
)
def test_words_the_program_puts_in_sys_argv_before_the_parse_decide(tmp_path: Path, change: str) -> None:
    assert check(tmp_path, {"entry.py": entry(change)}) == [("entry.py", CHANGE_LINE, "RPL003")]


def test_argv_imported_from_sys(tmp_path: Path) -> None:
    text = entry("argv.extend(['--logprobs-mode', 'raw_logprobs'])").replace("import sys\n", "from sys import argv\n")
    assert check(tmp_path, {"entry.py": text}) == [("entry.py", CHANGE_LINE, "RPL003")]


def test_a_change_in_the_parsing_function_before_the_parse(tmp_path: Path) -> None:
    text = entry("pass").replace(
        "    return parser.parse_args()\n", "    sys.argv.extend(['--logprobs-mode', 'raw_logprobs'])\n    return parser.parse_args()\n"
    )
    assert check(tmp_path, {"entry.py": text}) == [("entry.py", 14, "RPL003")]


def test_words_that_set_processed_logprobs_win_over_a_raw_default(tmp_path: Path) -> None:
    assert check(tmp_path, {"entry.py": entry("sys.argv.extend(['--logprobs-mode', 'processed_logprobs'])", "raw_logprobs")}) == []


@pytest.mark.parametrize(
    "change",
    [
        "if DEBUG:\n        sys.argv.extend(['--logprobs-mode', 'raw_logprobs'])",
        "if not DEBUG:\n        pass\n    else:\n        sys.argv += ['--logprobs-mode', 'raw_logprobs']",
    ],
    ids=["if-false", "else-of-true"],
)
def test_a_change_under_a_branch_not_taken_never_runs(tmp_path: Path, change: str) -> None:
    assert check(tmp_path, {"entry.py": entry(change)}) == []


@pytest.mark.parametrize(
    "change",
    [
        "sys.argv.extend(os.environ['EXTRA_ARGS'].split())",
        "sys.argv += sys.stdin.readline().split()",
        "if len(sys.argv) == 1:\n        sys.argv.extend(['--logprobs-mode', 'processed_logprobs'])",
        "sys.argv.insert(1, '--logprobs-mode=processed_logprobs')",
    ],
    ids=["environment", "stdin", "branch-on-the-run", "insert"],
)
def test_words_from_outside_or_a_change_not_read_leave_the_options_open(tmp_path: Path, change: str) -> None:
    assert check(tmp_path, {"entry.py": entry(change, "raw_logprobs")}) == []


def test_a_change_after_the_parse_decides_nothing(tmp_path: Path) -> None:
    text = entry("pass", "raw_logprobs").replace(
        "    main(get_args())\n", "    args = get_args()\n    sys.argv.extend(['--logprobs-mode', 'processed_logprobs'])\n    main(args)\n"
    )
    assert check(tmp_path, {"entry.py": text}) == [("entry.py", DEFAULT_LINE, "RPL003")]


def test_the_run_s_own_words_keep_the_default_deciding_as_before(tmp_path: Path) -> None:
    assert check(tmp_path, {"entry.py": entry("pass", "raw_logprobs")}) == [("entry.py", DEFAULT_LINE, "RPL003")]


PROGRAM = (
    "import json\n"
    "import sys\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "llm_kwargs = json.loads(sys.argv[{index}])\n"
    "\n"
    "\n"
    "def main():\n"
    "    llm = LLM(**llm_kwargs)\n"
    "    llm.generate(['p'], SamplingParams(temperature=0.8, top_k=40))\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)
RUNNER = (
    "import json\n"
    "import os\n"
    "import subprocess\n"
    "import sys\n"
    "from pathlib import Path\n"
    "\n"
    "RUN_FILE = {path}\n"
    "\n"
    "\n"
    "def run_vllm(save_dir):\n"
    "    llm_kwargs = {\n"
    "        'model': save_dir,\n"
    "        'return_sampling_mask': True,\n"
    "    }\n"
    "    {call}\n"
)
MASK_LINE = 13


def runner(call: str, path: str = "Path(__file__).parent / 'run_vllm.py'") -> str:
    return RUNNER.replace("{path}", path).replace("{call}", call)


@pytest.mark.parametrize(
    ("path", "call", "index"),
    [
        ("Path(__file__).parent / 'run_vllm.py'", "subprocess.run([sys.executable, str(RUN_FILE), json.dumps(llm_kwargs), '[]'])", 1),
        (
            "os.path.join(os.path.dirname(__file__), 'run_vllm.py')",
            "subprocess.check_call(['python3', RUN_FILE, '[]', json.dumps(llm_kwargs)])",
            2,
        ),
        (
            "Path(__file__).with_name('run_vllm.py')",
            "cmd = [sys.executable, str(RUN_FILE), json.dumps(llm_kwargs)]\n    subprocess.Popen(cmd).wait()",
            1,
        ),
    ],
    ids=["run-sys-executable", "check-call-python3", "popen-named-list"],
)
def test_json_keywords_on_a_python_program_s_command_line(tmp_path: Path, path: str, call: str, index: int) -> None:
    files = {"e2e/run_vllm.py": PROGRAM.replace("{index}", str(index)), "e2e/test_vllm.py": runner(call, path)}
    assert check(tmp_path, files) == [("test_vllm.py", MASK_LINE, "RPL003")]


def test_a_json_text_spelt_out_on_the_command_line(tmp_path: Path) -> None:
    call = 'subprocess.run([sys.executable, str(RUN_FILE), \'{"model": "m", "return_sampling_mask": true}\'])'
    files = {"e2e/run_vllm.py": PROGRAM.replace("{index}", "1"), "e2e/test_vllm.py": runner(call)}
    assert check(tmp_path, files) == [("test_vllm.py", 15, "RPL003")]


def test_keywords_that_set_processed_logprobs(tmp_path: Path) -> None:
    text = runner("subprocess.run([sys.executable, str(RUN_FILE), json.dumps(llm_kwargs)])").replace(
        "        'return_sampling_mask': True,\n", "        'return_sampling_mask': True,\n        'logprobs_mode': 'processed_logprobs',\n"
    )
    assert check(tmp_path, {"e2e/run_vllm.py": PROGRAM.replace("{index}", "1"), "e2e/test_vllm.py": text}) == []


@pytest.mark.parametrize(
    "call",
    [
        "subprocess.run([sys.executable, str(RUN_FILE), json.dumps(json.load(open(os.environ['CFG'])))])",
        "subprocess.run([sys.executable, str(RUN_FILE), sys.argv[1]])",
        "subprocess.run([sys.executable, 'other.py', json.dumps(llm_kwargs)])",
        "subprocess.run([sys.executable, str(RUN_FILE), json.dumps(llm_kwargs)])\n"
        '    subprocess.run([sys.executable, str(RUN_FILE), \'{"model": "m"}\'])',
    ],
    ids=["keywords-from-a-file-named-at-run-time", "the-runner-s-own-argv", "another-program", "two-runs-that-differ"],
)
def test_keywords_not_known_or_another_program_leave_the_engine_open(tmp_path: Path, call: str) -> None:
    files = {"e2e/run_vllm.py": PROGRAM.replace("{index}", "1"), "e2e/test_vllm.py": runner(call)}
    assert check(tmp_path, files) == []


def test_a_program_that_changes_its_own_argv_stays_open(tmp_path: Path) -> None:
    program = PROGRAM.replace("{index}", "1").replace("llm_kwargs = ", "sys.argv.pop()\nllm_kwargs = ")
    files = {
        "e2e/run_vllm.py": program,
        "e2e/test_vllm.py": runner("subprocess.run([sys.executable, str(RUN_FILE), json.dumps(llm_kwargs)])"),
    }
    assert check(tmp_path, files) == []


def test_the_parser_in_another_module(tmp_path: Path) -> None:
    parser = (
        "import argparse\n\n\ndef get_args():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--logprobs-mode', default='processed_logprobs')\n    return parser.parse_args()\n"
    )
    script = (
        "import sys\n\nfrom vllm import LLM\n\nfrom cli import get_args\n\nif __name__ == '__main__':\n"
        "    sys.argv.extend(['--logprobs-mode', 'raw_logprobs'])\n    args = get_args()\n"
        "    LLM(model='m', return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n"
    )
    assert check(tmp_path, {"cli.py": parser, "main.py": script}) == [("main.py", 8, "RPL003")]


def test_a_calling_function_that_extends_it_before_the_call(tmp_path: Path) -> None:
    text = (
        "import argparse\nimport sys\n\nfrom vllm import LLM\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--logprobs-mode', default='processed_logprobs')\n    args = parser.parse_args()\n"
        "    return LLM(model='m', return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n\n\n"
        "def run():\n    sys.argv.extend(['--logprobs-mode', 'raw_logprobs'])\n    main()\n\n\nif __name__ == '__main__':\n    run()\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 15, "RPL003")]
