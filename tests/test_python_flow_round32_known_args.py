"""What held-out round 32 made the value flow follow for a program that hands the words it does not
know to vLLM's server (two missed findings, NeMo-Skills' `serve_vllm.py`).

The start script runs `python -m nemo_skills.inference.server.serve_vllm --model M --num_gpus 1
--enable-scale-out --return-sampling-mask`; the program takes its own options with
`args, unknown = parser.parse_known_args()` and runs `python -m vllm.entrypoints.openai.api_server
... {" ".join(unknown)}` with `shell=True`. The words argparse leaves over are the script's, placed on
the script's line, and the program's own options take the script's values (`--num_gpus 1`). The
script, which names the mask, asks for the servers its run starts; the program alone names nothing.
A run whose words are not all known, a parser with a positional, a flag that begins several of the
program's flags, or a list the program changes in place leave the server open (no finding)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PROGRAM = (
    "import argparse\n"
    "import subprocess\n"
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model')\n"
    "    parser.add_argument('--num_gpus', type=int, required=True)\n"
    "    parser.add_argument('--port', type=int, default=5000)\n"
    "{more}"
    "    args, unknown = parser.parse_known_args()\n"
    "{change}"
    "    extra_arguments = f'{{\" \".join(unknown)}}'\n"
    "    cmd = (\n"
    "        f'python -m vllm.entrypoints.openai.api_server '\n"
    "        f'    --model=\"{{args.model}}\" '\n"
    "        f'    --port={{args.port}} '\n"
    "        f'    --tensor-parallel-size={{args.num_gpus}} '\n"
    "        f'    {{extra_arguments}} | grep -v \"200 OK\"'\n"
    "    )\n"
    "    subprocess.run(cmd, shell=True, check=True)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)
SERVER = "pkg/server/serve_vllm.py"


def program(more: str = "", change: str = "") -> str:
    return PROGRAM.format(more=more, change=change)


def tree(*lines: str, text: str | None = None) -> dict[str, str]:
    script = "#!/bin/bash\nexport SLURM_PROCID=0\n" + "\n".join(lines) + "\n"
    return {"pkg/__init__.py": "", "pkg/server/__init__.py": "", SERVER: text or program(), "start_server.sh": script}


def run(*words: str) -> str:
    return "python -m pkg.server.serve_vllm --model m --num_gpus 1 --port 5000 " + " ".join(words)


def test_the_mask_the_script_hands_on_without_scale_out_is_reported_on_the_script(tmp_path: Path) -> None:
    found = check(tmp_path, tree(run("--return-sampling-mask --logprobs-mode processed_logprobs")))
    assert found == [("start_server.sh", 3, "RPL301")]


def test_the_mask_without_the_mode_is_reported_on_the_script_s_word(tmp_path: Path) -> None:
    found = check(
        tmp_path,
        tree(
            "python -m pkg.server.serve_vllm \\",
            "    --model m --num_gpus 1 --port 5000 \\",
            "    --enable-scale-out --return-sampling-mask",
        ),
    )
    assert found == [("start_server.sh", 5, "RPL003")]


@pytest.mark.parametrize(
    "words",
    [
        "--enable-scale-out --return-sampling-mask --logprobs-mode=processed_logprobs",
        "--enable-scale-out --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs",
        "--enable-scale-out --return-sampling-mask --num 2 --logprobs-mode processed_logprobs",
    ],
    ids=["equals", "own-option-between", "abbreviated-own-option"],
)
def test_scale_out_and_the_processed_mode_leave_the_server_clean(tmp_path: Path, words: str) -> None:
    assert check(tmp_path, tree(run(words))) == []


def test_the_program_checked_alone_names_nothing(tmp_path: Path) -> None:
    files = tree(run("--return-sampling-mask"))
    del files["start_server.sh"]
    assert check(tmp_path, files) == []


def test_words_a_variable_holds_are_split_as_the_shell_splits_them(tmp_path: Path) -> None:
    found = check(tmp_path, tree('SERVER_ARGS="--enable-scale-out --return-sampling-mask"', run("$SERVER_ARGS")))
    assert [(name, code) for name, _, code in found] == [("start_server.sh", "RPL003")]


def test_each_script_s_run_is_read_as_that_script_runs_it(tmp_path: Path) -> None:
    files = tree(run("--enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs"))
    files["slurm/start_no_scale_out.sh"] = "#!/bin/bash\n" + run("--return-sampling-mask --logprobs-mode processed_logprobs") + "\n"
    assert check(tmp_path, files) == [("start_no_scale_out.sh", 2, "RPL301")]


def test_a_list_spliced_into_the_server_s_words_is_read_too(tmp_path: Path) -> None:
    text = (
        "import argparse, subprocess\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--model', default='m')\n"
        "args, extra = parser.parse_known_args()\n"
        "subprocess.Popen(['python', '-m', 'vllm.entrypoints.openai.api_server', '--model', args.model, *extra])\n"
    )
    found = check(tmp_path, tree(run("--return-sampling-mask"), text=text))
    assert sorted(code for _, _, code in found) == ["RPL003", "RPL301"]
    assert {(name, line) for name, line, _ in found} == {("start_server.sh", 3)}


def test_the_run_the_open_cases_change_is_reported(tmp_path: Path) -> None:
    found = check(tmp_path, tree("python -m pkg.server.serve_vllm --model m --num 1 --port 5000 --return-sampling-mask"))
    assert found == [("start_server.sh", 3, "RPL003"), ("start_server.sh", 3, "RPL301")]


@pytest.mark.parametrize(
    ("words", "more", "change"),
    [
        ('"$@" --return-sampling-mask', "", ""),
        ("-v --return-sampling-mask", "", ""),
        ("--return-sampling-mask", "    parser.add_argument('config')\n", ""),
        ("--return-sampling-mask", "    parser.add_argument('--num_nodes', type=int, default=1)\n", ""),
        ("--return-sampling-mask", "", "    unknown.append('--enable-scale-out')\n"),
        ("--return-sampling-mask -- --port 1", "", ""),
    ],
    ids=["forwarded-words", "short-flag", "positional", "begins-two-flags", "changed-in-place", "double-dash"],
)
def test_words_argparse_is_not_seen_to_leave_keep_the_server_open(tmp_path: Path, words: str, more: str, change: str) -> None:
    script = "python -m pkg.server.serve_vllm --model m --num 1 --port 5000 " + words
    assert check(tmp_path, tree(script, text=program(more, change))) == []


def test_a_program_that_names_the_mask_itself_reads_the_words_left_over(tmp_path: Path) -> None:
    text = program().replace("{extra_arguments} |", "--return-sampling-mask {extra_arguments} |")
    found = check(tmp_path, tree(run("--enable-scale-out"), text=text))
    assert [(name, code) for name, _, code in found] == [("serve_vllm.py", "RPL003")]
