"""Makefile and justfile recipes: each recipe line read as shell after make's or just's own
substitution, launches at their line in the file, fixes written into the recipe line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replaylint.frontends import ExtractContext, SourceFile, kind_for, recipes
from tests.test_configuration import run

MASK = "--return-sampling-mask"

# As public Makefiles write `make serve` (variables for the model and port, a continued command
# with two tabs, an `@if` guard over several lines).
MAKEFILE = (
    "MODEL := Qwen/Qwen3-8B\n"
    "HOST := 0.0.0.0\n"
    "PORT = 8000\n"
    "LOGPROBS = raw_logprobs\n"
    "\n"
    ".PHONY: serve guarded\n"
    "serve: ## start the rollout server\n"
    '\t@echo "serving $(MODEL)"\n'
    "\tvllm serve $(MODEL) \\\n"
    "\t\t--host $(HOST) \\\n"
    "\t\t--port ${PORT} \\\n"
    f"\t\t{MASK}\n"
    "\n"
    "guarded:\n"
    '\t@if [ -z "$(MODEL)" ]; then \\\n'
    '\t\techo "make guarded MODEL=..."; \\\n'
    "\t\texit 1; \\\n"
    "\tfi\n"
    f"\t-python -m vllm.entrypoints.openai.api_server --model m {MASK} --logprobs-mode $(LOGPROBS)\n"
)


def check(tmp_path: Path, files: dict[str, str], *args: str, ignore: str = "RPL301") -> tuple[int, str, str]:
    """RPL301 (a server's closed mask endpoint) is left out unless a test asks for it: these
    tests are about where recipes put launches, and their servers open no endpoint."""
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return run(tmp_path, "check", "--no-cache", *(("--extend-ignore", ignore) if ignore else ()), *args, *files)


def findings(tmp_path: Path, files: dict[str, str]) -> list[dict]:
    return json.loads(check(tmp_path, files, "--output-format", "json")[1])


@pytest.mark.parametrize("name", ["Makefile", "makefile", "GNUmakefile", "rules.mk", "justfile", ".justfile", "Justfile"])
def test_recipe_files_are_read(name: str) -> None:
    assert kind_for(f"deploy/{name}") == ("justfile" if "just" in name.lower() else "makefile")


def test_launches_are_reported_at_their_line_in_the_makefile_in_every_format(tmp_path: Path) -> None:
    found = findings(tmp_path, {"Makefile": MAKEFILE})
    # The second launch's `raw_logprobs` is written in `LOGPROBS = raw_logprobs` (line 4): the value's line.
    assert [(f["code"], f["location"]["row"], f["location"]["column"]) for f in found] == [("RPL003", 4, 12), ("RPL003", 12, 3)]
    assert "cell" not in found[0]
    _, concise, _ = check(tmp_path, {"Makefile": MAKEFILE}, "--output-format", "concise")
    assert "\nMakefile:12:3: RPL003 [*] `--return-sampling-mask` without logprobs_mode" in concise
    _, full, _ = check(tmp_path, {"Makefile": MAKEFILE}, "--output-format", "full")
    assert "12 | \t\t--return-sampling-mask".expandtabs(1) in full
    _, github, _ = check(tmp_path, {"Makefile": MAKEFILE}, "--output-format", "github")
    assert "\n::error file=Makefile,line=12,endLine=12,col=3," in github
    _, sarif, _ = check(tmp_path, {"Makefile": MAKEFILE}, "--output-format", "sarif")
    regions = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in json.loads(sarif)["runs"][0]["results"]]
    assert regions == [4, 12]


def test_the_fix_edits_the_recipe_line_and_keeps_its_tabs(tmp_path: Path) -> None:
    status, _, err = check(tmp_path, {"Makefile": MAKEFILE}, "--fix")
    assert status == 0, err  # the second launch's value is written in `LOGPROBS = raw_logprobs`: fixed there
    fixed = (tmp_path / "Makefile").read_text()
    assert fixed.splitlines()[3] == "LOGPROBS = processed_logprobs"
    assert fixed.splitlines()[11] == f"\t\t{MASK} \\"
    assert fixed.splitlines()[12].startswith("\t") or fixed.splitlines()[12].startswith(" ")
    assert "--logprobs-mode processed_logprobs" in fixed.splitlines()[12]
    assert fixed.splitlines()[4:11] == MAKEFILE.splitlines()[4:11] and fixed.endswith("$(LOGPROBS)\n")
    assert findings(tmp_path, {"Makefile": fixed}) == []
    check(tmp_path, {"Makefile": fixed}, "--fix")
    assert (tmp_path / "Makefile").read_text() == fixed  # a second run changes nothing


@pytest.mark.parametrize(
    ("makefile", "reported"),
    [
        pytest.param(f"ARGS = --logprobs-mode raw_logprobs\nserve:\n\tvllm serve m {MASK} $(ARGS)\n", True, id="= is the file's"),
        pytest.param(f"serve:\n\tvllm serve m {MASK} $(EXTRA_ARGS)\n", False, id="a variable the file never sets"),
        pytest.param(f"serve:\n\tvllm serve m {MASK} $(shell cat args.txt)\n", False, id="a function"),
        pytest.param(
            f"A = --logprobs-mode\nB = $(A) raw_logprobs\nserve:\n\t@-vllm serve m {MASK} $(B)\n", True, id="recursive, with prefixes"
        ),
        pytest.param(f"serve:\n\tMODE=raw_logprobs; vllm serve m {MASK} --logprobs-mode $$MODE\n", True, id="$$ is the shell's $"),
        pytest.param(
            f"ifdef FAST\nARGS = --logprobs-mode raw_logprobs\nendif\nserve:\n\tvllm serve m {MASK} $(ARGS)\n",
            False,
            id="set in a conditional",
        ),
        pytest.param(f"serve: ; vllm serve m {MASK}\n", True, id="a recipe after ;"),
        pytest.param(f"# vllm serve m {MASK}\nserve:\n\t# vllm serve m {MASK}\n\techo ok\n", False, id="comments"),
        pytest.param(f"help:\n\t@echo 'make serve starts vllm serve m {MASK}'\n", False, id="an echo"),
    ],
)
def test_make_variables(tmp_path: Path, makefile: str, reported: bool) -> None:
    assert bool(findings(tmp_path, {"Makefile": makefile})) is reported


@pytest.mark.parametrize(
    ("makefile", "row", "condition"),
    [
        pytest.param(
            f"ARGS ?= --logprobs-mode raw_logprobs\nserve:\n\tvllm serve m {MASK} $(ARGS)\n",
            1,
            "`make ARGS=...` sets ARGS, so Makefile:1's default `ARGS ?= --logprobs-mode raw_logprobs` holds",
            id="the words a ?= gives",
        ),
        pytest.param(
            f"MODEL ?= Qwen/Qwen3-8B\nserve:\n\tvllm serve $(MODEL) {MASK}\n",
            3,
            "`make MODEL=...` sets MODEL, so Makefile:1's default `MODEL ?= Qwen/Qwen3-8B` holds",
            id="an absent setting: set otherwise, MODEL may add any words",
        ),
        pytest.param(
            f"M ?= raw_logprobs\nMODE = $(M)\nserve:\n\tvllm serve m {MASK} --logprobs-mode $(MODE)\n",
            4,
            "Makefile:1's default `M ?= raw_logprobs`",
            id="through a recursive variable",
        ),
        pytest.param(
            f"ARGS = --logprobs-mode raw_logprobs\nARGS ?= --logprobs-mode processed_logprobs\nserve:\n\tvllm serve m {MASK} $(ARGS)\n",
            1,
            None,
            id="a ?= after the file set it does nothing",
        ),
    ],
)
def test_a_conditional_default_is_what_make_runs_as_written(tmp_path: Path, makefile: str, row: int, condition: str | None) -> None:
    """`make serve` run as written takes `NAME ?= value` (the project's rule: a default the
    program uses when run as written counts, and the message says whose it is and where). This
    reverses the earlier reading, which took every `?=` as the caller's and so judged no launch
    built from one; the finding now says the condition under which the value holds."""
    [found] = findings(tmp_path, {"Makefile": makefile})
    assert found["location"]["row"] == row
    if condition is None:
        assert "?=" not in found["message"]
    else:
        assert "when neither the environment nor " in found["message"] and condition in found["message"]


@pytest.mark.parametrize(
    "makefile",
    [
        pytest.param(f"MODEL ?= $(shell cat model.txt)\nserve:\n\tvllm serve $(MODEL) {MASK}\n", id="a ?= of a function"),
        pytest.param(f"MODEL ?= $(BASE)\nserve:\n\tvllm serve $(MODEL) {MASK}\n", id="a ?= of a variable the file never sets"),
        pytest.param(f"ifdef GPU\nMODEL ?= m\nendif\nserve:\n\tvllm serve $(MODEL) {MASK}\n", id="a ?= in a conditional"),
        pytest.param(f"ARGS ?= $(EXTRA)\nserve:\n\tvllm serve m {MASK} $(ARGS)\n", id="flags from a ?= of an unknown"),
    ],
)
def test_a_conditional_default_of_unknown_value_stays_open(tmp_path: Path, makefile: str) -> None:
    """Absence is judged only when the default itself is known: these launches may be given
    any words, so a missing `--logprobs-mode` is not reported."""
    assert findings(tmp_path, {"Makefile": makefile}) == []


def test_an_exported_conditional_default_is_the_recipes_environment_with_its_condition(tmp_path: Path) -> None:
    text = f"export VLLM_USE_V2_MODEL_RUNNER ?= 0\nserve:\n\tvllm serve m {MASK} --logprobs-mode processed_logprobs\n"
    [found] = findings(tmp_path, {"Makefile": text})
    assert (found["code"], found["location"]["row"]) == ("RPL206", 1)
    assert "`make VLLM_USE_V2_MODEL_RUNNER=...` sets VLLM_USE_V2_MODEL_RUNNER" in found["message"]


def test_exported_variables_are_the_recipes_environment(tmp_path: Path) -> None:
    text = f"export VLLM_USE_V2_MODEL_RUNNER = 0\nserve:\n\tvllm serve m {MASK} --logprobs-mode processed_logprobs\n"
    assert [(f["code"], f["location"]["row"]) for f in findings(tmp_path, {"Makefile": text})] == [("RPL206", 1)]
    unexported = text.replace("export ", "")
    assert findings(tmp_path, {"Makefile": unexported}) == []


def test_one_shell_recipes_are_one_script(tmp_path: Path) -> None:
    text = f".ONESHELL:\nserve:\n\tMODE=raw_logprobs\n\tvllm serve m {MASK} --logprobs-mode $$MODE\n"
    assert [f["location"]["row"] for f in findings(tmp_path, {"Makefile": text})] == [3]  # at MODE's value
    assert findings(tmp_path, {"Makefile": text.replace(".ONESHELL:\n", "")}) == []  # each line its own shell: MODE unset


JUSTFILE = (
    "set export\n"
    "\n"
    'model := "Qwen/Qwen3-8B"\n'
    "\n"
    "# just serve, or just serve 8001\n"
    'serve port="8000" logprobs="raw_logprobs":\n'
    f"    vllm serve {{{{model}}}} --port {{{{port}}}} {MASK} --logprobs-mode {{{{logprobs}}}}\n"
    "\n"
    "open *args:\n"
    f"    vllm serve {{{{model}}}} {MASK} {{{{args}}}}\n"
    "\n"
    "script:\n"
    "    #!/usr/bin/env bash\n"
    "    set -euo pipefail\n"
    "    vllm serve {{model}} \\\n"
    f"      {MASK}\n"
)


def test_justfile_recipes_with_variables_parameters_and_shebangs(tmp_path: Path) -> None:
    found = findings(tmp_path, {"justfile": JUSTFILE})
    assert [(f["location"]["row"], f["location"]["column"]) for f in found] == [(7, 81), (16, 7)]
    assert 'when `just serve` keeps its default `logprobs="raw_logprobs"`' in found[0]["message"]
    assert found[0]["fix"] is None  # the value is {{logprobs}}: nothing can be written into it, no fix is offered
    check(tmp_path, {"justfile": JUSTFILE}, "--fix")
    fixed = (tmp_path / "justfile").read_text()
    assert fixed.splitlines()[15] == f"      {MASK} \\" and "--logprobs-mode processed_logprobs" in fixed.splitlines()[16]
    assert fixed.splitlines()[:15] == JUSTFILE.splitlines()[:15]


@pytest.mark.parametrize(
    ("justfile", "reported"),
    [
        pytest.param(f"serve model:\n    vllm serve {{{{model}}}} {MASK}\n", False, id="a parameter, unquoted, may hold flags"),
        pytest.param(f'serve model:\n    vllm serve "{{{{model}}}}" {MASK}\n', True, id="a quoted parameter is one word"),
        pytest.param(f"serve args:\n    vllm serve m {MASK} {{{{args}}}}\n", False, id="a parameter that may hold flags"),
        pytest.param(f"args := `cat args.txt`\nserve:\n    vllm serve m {MASK} {{{{args}}}}\n", False, id="a backtick"),
        pytest.param(f"args := env('ARGS', '')\nserve:\n    vllm serve m {MASK} {{{{args}}}}\n", False, id="a function"),
        pytest.param(
            f"a := '--logprobs-mode'\nb := a + ' raw_logprobs'\nserve:\n    @-vllm serve m {MASK} {{{{b}}}}\n",
            True,
            id="concatenation, prefixes",
        ),
        pytest.param(
            f"serve:\n    #!/usr/bin/env python3\n    import os; os.system('vllm serve m {MASK}')\n", False, id="a Python shebang"
        ),
        pytest.param(f"serve:\n    echo '{{{{{{{{not}}}}' && echo vllm serve m {MASK}\n", False, id="escaped braces"),
    ],
)
def test_just_values(tmp_path: Path, justfile: str, reported: bool) -> None:
    assert bool(findings(tmp_path, {"justfile": justfile})) is reported


def test_just_exports(tmp_path: Path) -> None:
    exported = f'export VLLM_USE_V2_MODEL_RUNNER := "0"\nserve:\n    vllm serve m {MASK} --logprobs-mode processed_logprobs\n'
    assert [(f["code"], f["location"]["row"]) for f in findings(tmp_path, {"justfile": exported})] == [("RPL206", 1)]
    assert findings(tmp_path, {"justfile": exported.replace("export ", "")}) == []


def test_named_recipe_files_are_read_and_others_skipped(tmp_path: Path) -> None:
    status, out, err = check(tmp_path, {"Makefile": MAKEFILE, "justfile": JUSTFILE, "foo.bin": "\x00"}, "--output-format", "concise")
    assert status == 1
    assert "Makefile:12:3:" in out and "justfile:7:81:" in out
    assert "foo.bin: skipped" in err and "Makefile: skipped" not in err


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Makefile", f"include .env\nexport\nserve:\n\tvllm serve m {MASK}\n"),
        ("justfile", f"set dotenv-load\nserve:\n    vllm serve m {MASK}\n"),
    ],
    ids=["make include", "just dotenv-load"],
)
def test_an_environment_from_files_not_read_is_open(name: str, text: str) -> None:
    """The `.env` may set any variable (the runner's too): the launch's environment is open."""

    def launch(text: str):
        [found] = recipes.extract(SourceFile(name, text), ExtractContext())
        return found

    assert launch(text).env_open and not launch(text.split("\n", 1)[1]).env_open


def test_a_recipes_replay_server_without_the_mask_endpoint_is_rpl301(tmp_path: Path) -> None:
    recipe = "serve:\n\tvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"
    status, out, _ = check(tmp_path, {"Makefile": recipe}, "--output-format", "concise", ignore="")
    assert status == 1 and "Makefile:2:15: RPL301" in out
