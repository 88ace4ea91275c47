"""Jupyter notebooks: code cells read as Python, `!` lines and `%%bash` cells as shell, findings
at the cell and its line in every output format (as ruff reports notebooks), fixes written into
the JSON with everything else left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replaylint.frontends import ExtractContext, SourceFile, kind_for, notebook
from replaylint.frontends.notebook.ipython import read_cell
from tests.test_configuration import run

MASK = "--return-sampling-mask"


def cell(source: list[str] | str, outputs: list | None = None, cell_type: str = "code") -> dict:
    found: dict = {"cell_type": cell_type, "metadata": {}, "source": source}
    if cell_type == "code":
        found.update({"execution_count": None, "outputs": outputs or []})
    return found


def notebook_text(*cells: dict, language: str = "python", indent: int = 1) -> str:
    """A notebook as Jupyter writes it (`language` is the kernel's, as `kernelspec` names it)."""
    document = {
        "cells": list(cells),
        "metadata": {"kernelspec": {"display_name": "K", "language": language, "name": "k"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=indent, ensure_ascii=False) + "\n"


# A notebook as people write them (spellings from public Colab and RL notebooks): a markdown
# cell, `%pip`, `%env`, a `!python -m vllm...` continued over lines and run in the background,
# a Python engine, a `%%bash` cell given as one string.
ROLLOUT = notebook_text(
    cell(["# Rollouts\n", "`vllm serve m --return-sampling-mask` is how we start it.\n"], cell_type="markdown"),
    cell(
        ["%pip install -q vllm\n", "%env VLLM_USE_V2_MODEL_RUNNER=0"],
        outputs=[{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}],
    ),
    cell(["!python -m vllm.entrypoints.openai.api_server \\\n", "    --model Qwen/Qwen3-8B \\\n", f"    {MASK} &"]),
    cell(
        [
            "from vllm import LLM\n",
            "\n",
            "llm = LLM(\n",
            '    model="Qwen/Qwen3-8B",\n',
            "    return_sampling_mask=True,\n",
            '    logprobs_mode="raw_logprobs",\n',
            ")",
        ]
    ),
    cell(f"%%bash\nvllm serve Qwen/Qwen3-8B --port 8001 {MASK} --logprobs-mode raw_logprobs\n"),
)


def check(tmp_path: Path, text: str, *args: str, name: str = "rollout.ipynb", ignore: str = "RPL301") -> tuple[int, str, str]:
    """RPL301 (a server's closed mask endpoint) is left out unless a test asks for it: these
    tests are about where cells put launches, and their servers open no endpoint."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    return run(tmp_path, "check", "--no-cache", *(("--extend-ignore", ignore) if ignore else ()), *args, name)


def test_notebooks_are_their_own_kind() -> None:
    assert kind_for("work/Rollout.ipynb") == "notebook"


def test_findings_are_reported_at_the_cell_and_its_line_in_the_text_formats(tmp_path: Path) -> None:
    status, out, _ = check(tmp_path, ROLLOUT, "--output-format", "concise")
    assert status == 1
    places = [line.split(" ", 2)[:2] for line in out.splitlines() if line.startswith("rollout.ipynb")]
    assert places == [
        ["rollout.ipynb:cell", "2:2:1:"],  # `%env VLLM_USE_V2_MODEL_RUNNER=0` (RPL206)
        ["rollout.ipynb:cell", "3:3:5:"],  # the mask on the third line of the `!` command
        ["rollout.ipynb:cell", "4:6:19:"],  # logprobs_mode="raw_logprobs"
        ["rollout.ipynb:cell", "5:2:77:"],  # raw_logprobs on the %%bash cell's second line
    ]
    _, full, _ = check(tmp_path, ROLLOUT, "--output-format", "full")
    # The excerpt shows the cell's own lines, numbered in the cell, and the fix as the cell changes.
    assert "rollout.ipynb:cell 4:6:19: RPL003" in full
    assert '6 |     logprobs_mode="raw_logprobs",' in full
    assert '| +    logprobs_mode="processed_logprobs",' in full
    assert '\\"' not in full  # the cell's text, not the JSON's escapes


def test_json_gives_the_cell_and_rows_in_it_as_ruff_does(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "json")
    findings = json.loads(out)
    located = [(f["cell"], f["location"], f["end_location"]["row"]) for f in findings]
    assert located[2] == (4, {"row": 6, "column": 19}, 6)
    assert [f["cell"] for f in findings] == [2, 3, 4, 5]
    # Fix edits stay in the file (they apply to it as written).
    edit = findings[2]["fix"]["edits"][0]
    text = (tmp_path / "rollout.ipynb").read_text()
    lines = text.splitlines()
    assert edit["content"] == '\\"processed_logprobs\\"'
    assert lines[edit["location"]["row"] - 1].strip() == '"    logprobs_mode=\\"raw_logprobs\\",\\n",'
    _, lines_out, _ = check(tmp_path, ROLLOUT, "--output-format", "json-lines")
    assert [json.loads(line)["cell"] for line in lines_out.splitlines()] == [2, 3, 4, 5]


def test_github_annotations_keep_the_file_line_and_say_the_cell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "github")
    annotations = [line for line in out.splitlines() if line.startswith("::")]
    text = (tmp_path / "rollout.ipynb").read_text().splitlines()
    third = annotations[2]
    line = int(third.split("line=", 1)[1].split(",", 1)[0])
    assert "logprobs_mode" in text[line - 1]  # the annotation lands on the line of the JSON that holds it
    assert "::cell 4:6:19: `logprobs_mode" in third


def test_sarif_regions_stay_in_the_file_and_properties_name_the_cell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    third = results[2]
    assert third["properties"]["cell"] == 4 and third["properties"]["cellLine"] == 6 and third["properties"]["cellColumn"] == 19
    assert third["message"]["text"].startswith("cell 4:6:19: ")
    region = third["locations"][0]["physicalLocation"]["region"]
    assert "logprobs_mode" in (tmp_path / "rollout.ipynb").read_text().splitlines()[region["startLine"] - 1]


def test_fixes_write_a_valid_notebook_and_touch_nothing_else(tmp_path: Path) -> None:
    status, _, err = check(tmp_path, ROLLOUT, "--fix")
    assert status == 0, err
    fixed_text = (tmp_path / "rollout.ipynb").read_text()
    before, after = json.loads(ROLLOUT), json.loads(fixed_text)
    assert fixed_text.endswith("}\n")
    assert [c.get("outputs") for c in after["cells"]] == [c.get("outputs") for c in before["cells"]]
    assert after["metadata"] == before["metadata"] and list(after) == list(before)
    sources = [c["source"] for c in after["cells"]]
    assert isinstance(sources[4], str)  # a string stays a string
    assert all(line.endswith("\n") for line in sources[2][:-1])  # a list stays a list of lines
    assert sources[2][-2:] == ["    --return-sampling-mask \\\n", "    --logprobs-mode processed_logprobs &"]
    assert '    logprobs_mode="processed_logprobs",\n' in sources[3]
    assert "--logprobs-mode processed_logprobs" in sources[4]
    assert sources[1] == ["%pip install -q vllm"]  # RPL206: the last line `%env ...` goes, with the line break before it
    # Lines outside the fixed ones are the file's own, byte for byte (indent, key order).
    changed = [line for line in fixed_text.splitlines() if line not in ROLLOUT.splitlines()]
    assert changed and all("logprobs" in line or MASK in line or "%pip" in line for line in changed)
    assert notebook.parses(fixed_text)
    status, _, _ = check(tmp_path, fixed_text, "--fix", "--output-format", "concise")
    assert status == 0 and (tmp_path / "rollout.ipynb").read_text() == fixed_text  # a second run changes nothing


def test_a_new_python_line_becomes_an_item_of_the_list(tmp_path: Path) -> None:
    text = notebook_text(
        cell(["from vllm import LLM\n", "llm = LLM(\n", '    model="m",\n', "    return_sampling_mask=True,\n", ")\n"]), indent=2
    )
    check(tmp_path, text, "--fix")
    source = json.loads((tmp_path / "rollout.ipynb").read_text())["cells"][0]["source"]
    assert source == [
        "from vllm import LLM\n",
        "llm = LLM(\n",
        '    model="m",\n',
        "    return_sampling_mask=True,\n",
        '    logprobs_mode="processed_logprobs",\n',
        ")\n",
    ]
    assert '\n        "    logprobs_mode=' in (tmp_path / "rollout.ipynb").read_text()  # at the items' indent


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(["# !vllm serve m --return-sampling-mask\n"], id="a commented-out command"),
        pytest.param(["model = 'm'\n", f"!vllm serve {{model}} {MASK}\n"], id="a Python value IPython fills in"),
        pytest.param([f"!vllm serve m {MASK} $EXTRA_ARGS\n"], id="a variable the kernel may hold"),
        pytest.param(["%%writefile serve.sh\n", f"vllm serve m {MASK}\n"], id="a cell written to a file, not run"),
        pytest.param(
            [f"!{{sys.executable}} -m vllm.entrypoints.openai.api_server --model m {MASK} --logprobs-mode processed_logprobs\n"],
            id="the kernel's Python",
        ),
        pytest.param(
            [
                "from vllm import LLM\n",
                "if True:\n",
                "    %time 1\n",
                "LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n",
            ],
            id="a magic in a block",
        ),
    ],
)
def test_valid_notebooks(tmp_path: Path, source: list[str]) -> None:
    status, out, _ = check(tmp_path, notebook_text(cell(source)), "--output-format", "concise")
    assert status == 0, out


def test_a_kernel_named_python3_is_python(tmp_path: Path) -> None:
    text = notebook_text(cell(["from vllm import LLM\n", "LLM(model='m', return_sampling_mask=True)\n"]), language="Python3")
    assert check(tmp_path, text)[0] == 1


def test_markdown_and_other_kernels_are_not_read(tmp_path: Path) -> None:
    assert check(tmp_path, notebook_text(cell([f"vllm serve m {MASK}\n"], cell_type="markdown")))[0] == 0
    r_notebook = notebook_text(cell(["LLM(model='m', return_sampling_mask=TRUE)\n"]), language="R")
    assert check(tmp_path, r_notebook)[0] == 0


def test_a_bash_kernel_runs_its_cells_as_shell(tmp_path: Path) -> None:
    status, out, _ = check(tmp_path, notebook_text(cell([f"vllm serve m {MASK}\n"]), language="bash"), "--output-format", "concise")
    assert status == 1 and "rollout.ipynb:cell 1:1:" in out


def test_the_kernels_python_is_read_behind_its_expansion(tmp_path: Path) -> None:
    source = [f"!{{sys.executable}} -m vllm.entrypoints.openai.api_server --model m {MASK}\n"]
    _, out, _ = check(tmp_path, notebook_text(cell(source)), "--output-format", "concise")
    assert "rollout.ipynb:cell 1:1:67: RPL003" in out


def test_env_magics_reach_the_shell_commands_after_them_only(tmp_path: Path) -> None:
    before = notebook_text(
        cell(["%env VLLM_USE_V2_MODEL_RUNNER=0\n"]), cell([f"!vllm serve m {MASK} --logprobs-mode processed_logprobs\n"])
    )
    _, out, _ = check(tmp_path, before, "--output-format", "concise")
    assert "cell 1:1:1: RPL206" in out
    after = notebook_text(cell([f"!vllm serve m {MASK} --logprobs-mode processed_logprobs\n"]), cell(["%env VLLM_USE_V2_MODEL_RUNNER=0\n"]))
    assert check(tmp_path, after)[0] == 0


@pytest.mark.parametrize("broken", [[], [["def broken(:\n"]]], ids=["top-level await alone", "and a syntax error"])
def test_a_cell_python_cannot_read_leaves_the_others_read(tmp_path: Path, broken: list) -> None:
    text = notebook_text(
        cell(["result = await client.get('x')\n"]),  # top-level await: IPython runs it
        *(cell(source) for source in broken),
        cell(["from vllm import LLM\n", "LLM(model='m', return_sampling_mask=True)\n"]),
    )
    _, out, _ = check(tmp_path, text, "--output-format", "concise")
    assert f"rollout.ipynb:cell {2 + len(broken)}:2:" in out


def test_suppression_comments_in_cells(tmp_path: Path) -> None:
    text = notebook_text(
        cell(["from vllm import LLM\n", "LLM(model='m', return_sampling_mask=True)  # noqa: RPL003\n"]),
        cell([f"!vllm serve m {MASK}  # replaylint: ignore[RPL003]\n"]),
    )
    assert check(tmp_path, text)[0] == 0


def test_a_notebook_that_is_not_json_is_unparsable(tmp_path: Path) -> None:
    status, out, _ = check(tmp_path, '{"cells": [ "vllm serve m --return-sampling-mask"\n', "--output-format", "concise")
    assert status == 1 and "RPL900" in out and "not valid JSON" in out


def test_ipython_lines_become_placeholders_of_the_same_length() -> None:
    code = "%pip install vllm\nif x:\n    !ls \\\n      -l\ny = 1  # keep\n"
    reading = read_cell(code)
    assert len(reading.python) == len(code)
    assert reading.python.splitlines() == ["0                ", "if x:", "    0    ", "        ", "y = 1  # keep"]
    assert [step.text for step in reading.steps] == ["ls \\\n      -l"]


def test_escapes_in_the_json_map_to_their_place() -> None:
    text = notebook_text(cell('!vllm serve "m\\u00e9" --return-sampling-mask\n'))
    launch = notebook.extract(SourceFile("n.ipynb", text), ExtractContext())[0]
    written = text[launch.settings["return_sampling_mask"].span.start : launch.settings["return_sampling_mask"].span.end]
    assert written == MASK


def test_named_files_replaylint_does_not_read_are_said_to_be_skipped(tmp_path: Path) -> None:
    (tmp_path / "foo.bin").write_bytes(b"\x00\x01")
    (tmp_path / "notes.txt").write_text("vllm serve m --return-sampling-mask\n")
    (tmp_path / "clean.ipynb").write_text(notebook_text(cell(["print(1)\n"])))
    status, out, err = run(tmp_path, "check", "--no-cache", "clean.ipynb", "foo.bin", "notes.txt")
    assert status == 0, out
    assert "foo.bin: skipped, replaylint reads no file of this kind" in err
    assert "notes.txt: skipped" in err and "clean.ipynb" not in err
    (tmp_path / "rollout.ipynb").write_text(ROLLOUT)
    assert run(tmp_path, "check", "--no-cache", "rollout.ipynb", "foo.bin")[0] == 1


def test_shell_line_magics_are_shell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, notebook_text(cell([f"%sx vllm serve m {MASK}\n"])), "--output-format", "concise")
    assert "rollout.ipynb:cell 1:1:18: RPL003" in out


def test_an_nbformat_3_notebook_is_said_not_to_be_read(tmp_path: Path) -> None:
    old = json.dumps({"worksheets": [{"cells": [{"cell_type": "code", "input": [f"!vllm serve m {MASK}\n"]}]}], "nbformat": 3})
    status, out, _ = check(tmp_path, old, "--output-format", "concise")
    assert status == 1 and "RPL902" in out and "nbformat 3" in out


def test_the_kernels_environment_and_pin_reach_later_python_launches(tmp_path: Path) -> None:
    engine = ["from vllm import LLM\n", "LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"]
    text = notebook_text(cell(["%pip install -q vllm==0.31.0\n", "%env VLLM_USE_V2_MODEL_RUNNER=0\n"]), cell(engine))
    found = json.loads(check(tmp_path, text, "--output-format", "json")[1])
    assert [(f["code"], f["cell"], f["vllm_version"]) for f in found] == [("RPL004", 1, "0.31.0")]
    assert check(tmp_path, notebook_text(cell(engine), cell(["%env VLLM_USE_V2_MODEL_RUNNER=0\n"])))[0] == 0


def _file_line(tmp_path: Path, line: int) -> str:
    return (tmp_path / "rollout.ipynb").read_text().splitlines()[line - 1]


def test_pylint_lines_keep_the_file_line_and_say_the_cell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "pylint")
    third = out.splitlines()[2]
    path, line, rest = third.split(":", 2)
    assert path == "rollout.ipynb" and "logprobs_mode" in _file_line(tmp_path, int(line))
    assert rest.startswith(" [RPL003] cell 4:6:19: `logprobs_mode")


def test_junit_failures_say_the_cell_as_concise_does(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "junit")
    cases = ET.fromstring(out).findall(".//testcase")
    third = cases[2]
    assert third.findtext("failure").startswith("rollout.ipynb:cell 4:6:19: RPL003 ")
    assert "logprobs_mode" in _file_line(tmp_path, int(third.get("line")))  # a viewer opens the file there


def test_gitlab_issues_keep_the_file_lines_and_say_the_cell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "gitlab")
    third = json.loads(out)[2]
    assert third["description"].startswith("RPL003: cell 4:6:19: `logprobs_mode")
    assert "logprobs_mode" in _file_line(tmp_path, third["location"]["positions"]["begin"]["line"])


def test_rdjson_keeps_the_file_range_and_says_the_cell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "rdjson")
    third = json.loads(out)["diagnostics"][2]
    assert third["message"].startswith("cell 4:6:19: `logprobs_mode")
    start = third["location"]["range"]["start"]
    line = _file_line(tmp_path, start["line"]).encode()
    assert line[start["column"] - 1 :].startswith(b'\\"raw_logprobs\\"')  # where the suggestion applies
    assert third["suggestions"][0]["text"] == '\\"processed_logprobs\\"'


def test_azure_issues_keep_the_file_line_and_say_the_cell(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "azure")
    third = out.splitlines()[2]
    line = int(third.split("linenumber=", 1)[1].split(";", 1)[0])
    assert "logprobs_mode" in _file_line(tmp_path, line)
    assert ";]cell 4:6:19: `logprobs_mode" in third


def test_grouped_output_names_the_cell_as_ruff_does(tmp_path: Path) -> None:
    _, out, _ = check(tmp_path, ROLLOUT, "--output-format", "grouped")
    assert out.splitlines()[0] == "rollout.ipynb:"
    assert [line.split(" ")[2:4] for line in out.splitlines()[1:5]] == [
        ["cell", "2:2:1"],
        ["cell", "3:3:5"],
        ["cell", "4:6:19"],
        ["cell", "5:2:77"],
    ]


def test_a_list_on_one_line_stays_on_one_line(tmp_path: Path) -> None:
    compact = json.dumps(
        {
            "cells": [cell(["from vllm import LLM\n", "LLM(\n", "    model='m',\n", "    return_sampling_mask=True,\n", ")\n"])],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )
    check(tmp_path, compact, "--fix")
    fixed = (tmp_path / "rollout.ipynb").read_text()
    assert "\n" not in fixed and json.loads(fixed)["cells"][0]["source"][4] == "    logprobs_mode='processed_logprobs',\n"


@pytest.mark.parametrize(
    ("first", "left"),
    [
        (["%env VLLM_USE_V2_MODEL_RUNNER=0\n", "x = 1\n"], ["x = 1\n"]),
        (["x = 1\n", "%env VLLM_USE_V2_MODEL_RUNNER=0"], ["x = 1"]),
        (["%env VLLM_USE_V2_MODEL_RUNNER=0"], [""]),  # an empty item: nbformat's empty source too
    ],
    ids=["first line", "last line", "only line"],
)
def test_the_runner_variables_fix_removes_the_env_line(tmp_path: Path, first: list[str], left: list[str]) -> None:
    engine = ["from vllm import LLM\n", "LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"]
    shell = [f"!vllm serve m {MASK} --logprobs-mode processed_logprobs\n"]
    status, _, err = check(tmp_path, notebook_text(cell(first), cell(engine), cell(shell)), "--fix")
    assert status == 0, err
    fixed = json.loads((tmp_path / "rollout.ipynb").read_text())
    assert [c["source"] for c in fixed["cells"]] == [left, engine, shell]


def test_a_cells_replay_server_without_the_mask_endpoint_is_rpl301(tmp_path: Path) -> None:
    text = notebook_text(cell("!vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"))
    status, out, _ = check(tmp_path, text, "--output-format", "concise", ignore="")
    assert status == 1 and "rollout.ipynb:cell 1:1:15: RPL301" in out


def test_add_noqa_comments_the_cells_python_and_keeps_the_notebook(tmp_path: Path) -> None:
    _, _, err = check(tmp_path, ROLLOUT, "--add-noqa")
    assert "Added 4 noqa directives" in err
    before, after = json.loads(ROLLOUT), json.loads((tmp_path / "rollout.ipynb").read_text())
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in after["cells"]]
    # A comment after `%env` would be part of its value: the comment goes on the line above.
    assert after["cells"][1]["source"] == ["%pip install -q vllm\n", "# noqa: RPL206\n", "%env VLLM_USE_V2_MODEL_RUNNER=0"]
    assert sources[2].endswith(f"    {MASK} &  # noqa: RPL003")
    assert '    logprobs_mode="raw_logprobs",  # noqa: RPL003\n' in after["cells"][3]["source"]
    assert sources[4] == f"%%bash\nvllm serve Qwen/Qwen3-8B --port 8001 {MASK} --logprobs-mode raw_logprobs  # noqa: RPL003\n"
    assert [c.get("outputs") for c in after["cells"]] == [c.get("outputs") for c in before["cells"]]
    assert after["cells"][0] == before["cells"][0] and after["metadata"] == before["metadata"]
    assert check(tmp_path, (tmp_path / "rollout.ipynb").read_text())[0] == 0
    assert "Added 0 noqa directives" in check(tmp_path, (tmp_path / "rollout.ipynb").read_text(), "--add-noqa")[2]
