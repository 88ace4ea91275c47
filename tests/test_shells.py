"""One list of shells: `ash -c "vllm serve ..."` (or dash, ksh, mksh, a path to one) is the same
launch in a shell script, a Dockerfile, a Kubernetes manifest, a justfile, a GitHub workflow, a
notebook cell, a `#!` file and a Python argv list; a program that is no shell of the list, or a
shell given no `-c` string, starts nothing."""

from __future__ import annotations

import pytest

from replaylint.shells import command_string_at

LAUNCH = "vllm serve m --return-sampling-mask"
SHELLS_TRIED = ("ash", "dash", "ksh", "mksh", "/bin/ash", "bash")


def _forms(shell: str, options: str = "-c") -> dict[str, str]:
    """The launch `SHELL OPTIONS LAUNCH` written in each kind of file."""
    listed = ", ".join(f'"{word}"' for word in [shell, *options.split()])
    argv = f'[{listed}, "{LAUNCH}"]'
    return {
        "run.sh": f'#!/bin/sh\nset -e\n{shell} {options} "{LAUNCH}"\n',
        "Dockerfile": f"FROM ubuntu:22.04\nRUN pip install vllm==0.33.0\nENTRYPOINT {argv}\n",
        "pod.yaml": (
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: serve\nspec:\n  containers:\n  - name: vllm\n"
            f"    image: vllm/vllm-openai:v0.33.0\n    command: {argv}\n"
        ),
        "justfile": f'serve:\n    {shell} {options} "{LAUNCH}"\n',
        "launch.py": f"import subprocess\n\nsubprocess.run({argv}, check=True)\n",
        "spawn.py": f'import os\n\nos.execvp("{shell}", {argv})\n',
    }


def _launch_columns(results: dict, name: str) -> list[tuple[str, int]]:
    return [(finding.code, finding.span.start_line) for finding in results[name].findings if finding.code == "RPL003"]


@pytest.mark.parametrize("shell", SHELLS_TRIED)
def test_a_shell_string_is_a_launch_in_every_kind_of_file(check, shell: str) -> None:
    files = _forms(shell)
    results = check(files, "0.33.0")
    for name, text in files.items():
        line = next(number for number, content in enumerate(text.splitlines(), 1) if "--return-sampling-mask" in content)
        assert _launch_columns(results, name) == [("RPL003", line)], (name, results[name].findings)
        finding = next(f for f in results[name].findings if f.code == "RPL003")
        assert text.splitlines()[line - 1][finding.span.start_col - 1 :].startswith("--return-sampling-mask"), name


@pytest.mark.parametrize("shell", ("ash", "mksh", "/usr/bin/dash"))
def test_shebangs_workflows_and_script_cells_name_the_same_shells(check, shell: str) -> None:
    name = shell.rsplit("/", 1)[-1]
    files = {
        "start": f"#!/usr/bin/env {name}\n{LAUNCH}\n",
        "recipes/justfile": f"serve:\n    #!/usr/bin/env {name}\n    {LAUNCH}\n",
        ".github/workflows/serve.yml": (
            f"on: push\njobs:\n  serve:\n    runs-on: ubuntu-latest\n    steps:\n      - shell: {shell} -e {{0}}\n        run: {LAUNCH}\n"
        ),
        "cells.ipynb": (
            '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, '
            f'"source": ["%%script {shell}\\n", "{LAUNCH}\\n"]}}], '
            '"metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}'
        ),
    }
    results = check(files, "0.33.0")
    for file in files:
        assert [f.code for f in results[file].findings if f.code == "RPL003"] == ["RPL003"], (file, results[file].findings)


def test_options_before_the_string(check) -> None:
    """`sh -euo pipefail -c`, `bash --login -c`, `bash -c -e STRING`: the string is still found."""
    results = check(
        {
            "pod.yaml": _forms("bash", "-euo pipefail -c")["pod.yaml"],
            "Dockerfile": f'FROM ubuntu:22.04\nENTRYPOINT ["bash", "--login", "-c", "{LAUNCH}"]\n',
            "launch.py": f'import subprocess\nsubprocess.run(["sh", "-c", "-e", "{LAUNCH}"])\n',
        },
        "0.33.0",
    )
    assert all("RPL003" in [f.code for f in result.findings] for result in results.values()), results


@pytest.mark.parametrize(
    "program",
    [
        "fish -c",  # another grammar
        "busybox sh -c",  # a multi-call program: its first argument names the shell
        "ash -e",  # a shell given a script file's name, not a string
        "ash",
        "pwsh -c",
    ],
)
def test_no_launch_without_a_listed_shell_and_its_string(check, program: str) -> None:
    words = program.split()
    listed = ", ".join(f'"{word}"' for word in words)
    files = {
        "Dockerfile": f'FROM ubuntu:22.04\nENTRYPOINT [{listed}, "{LAUNCH}"]\n',
        "pod.yaml": f'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.33.0\n    command: [{listed}, "{LAUNCH}"]\n',
        "launch.py": f'import subprocess\nsubprocess.run([{listed}, "{LAUNCH}"])\n',
    }
    results = check(files, "0.33.0")
    assert {name: [f.code for f in result.findings] for name, result in results.items()} == {name: [] for name in files}


def test_a_workflow_step_in_another_language_is_not_read(check) -> None:
    workflow = "on: push\njobs:\n  serve:\n    runs-on: ubuntu-latest\n    steps:\n" + "".join(
        f"      - shell: {shell}\n        run: {LAUNCH}\n" for shell in ("pwsh", "python", "cmd", "zsh")
    )
    # `zsh` alone is no keyword of GitHub's: a custom shell needs the script's `{0}`.
    assert check({".github/workflows/w.yml": workflow}, "0.33.0")[".github/workflows/w.yml"].findings == []


@pytest.mark.parametrize(
    ("words", "position"),
    [
        (["sh", "-c", "S"], 2),
        (["/bin/ash", "-ec", "S", "name", "arg"], 2),
        (["bash", "-euo", "pipefail", "-c", "S"], 4),
        (["bash", "--login", "-c", "S"], 3),
        (["bash", "-c", "-e", "S"], 3),
        (["bash", "+x", "-c", "--", "S"], 4),
        (["dash", "-c", None], 2),  # the string is not known: the caller decides
        (["bash", "-c"], None),
        (["bash", "-e", "script.sh"], None),
        (["bash", "--", "-c"], None),
        (["python", "-c", "S"], None),
        ([None, "-c", "S"], None),
        ([], None),
    ],
)
def test_command_string_at(words: list[str | None], position: int | None) -> None:
    assert command_string_at(words) == position
