"""Logits-processor plugins declared in the tree (`vllm.logits_processors` entry points) and
installed where a replay launch runs: RPL001 at the entry point from 0.31, RPL004 on 0.28-0.30."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.frontends.packaging import local_folder

SERVE = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
PYPROJECT = """[build-system]
requires = ["setuptools"]

[project]
name = "ban-words"
version = "1.0"

[project.entry-points."vllm.logits_processors"]
ban = "ban_words.procs:BanWords"
"""
POETRY = """[tool.poetry]
name = "ban-words"
version = "1.0"

[tool.poetry.plugins."vllm.logits_processors"]
"ban" = "ban_words.procs:BanWords"
"""
SETUP_CFG = """[metadata]
name = ban-words

[options.entry_points]
console_scripts =
    ban = ban_words.cli:main
vllm.logits_processors =
    ban = ban_words.procs:BanWords
    ; a comment
    length = ban_words.procs:LengthBias
"""
SETUP_PY = """from setuptools import setup

setup(
    name="ban-words",
    entry_points={
        "console_scripts": ["ban=ban_words.cli:main"],
        "vllm.logits_processors": [
            "ban = ban_words.procs:BanWords",
        ],
    },
)
"""
SETUP_PY_NAMED = """import setuptools

ENTRY_POINTS = {"vllm.logits_processors": "ban = ban_words.procs:BanWords\\nlength = ban_words.procs:LengthBias"}
setuptools.setup(name="ban-words", entry_points=ENTRY_POINTS)
"""


def _codes(results, name: str) -> list[tuple[str, str, int]]:
    return [(f.code, f.span.path, f.span.start_line) for f in results[name].findings]


@pytest.mark.parametrize(
    ("packaging", "text", "lines"),
    [
        ("pyproject.toml", PYPROJECT, [9]),
        ("pyproject.toml", POETRY, [6]),
        ("setup.cfg", SETUP_CFG, [8, 10]),
        ("setup.py", SETUP_PY, [8]),
        ("setup.py", SETUP_PY_NAMED, [3, 3]),
    ],
)
def test_plugin_of_the_launch_project(check, packaging: str, text: str, lines: list[int]) -> None:
    results = check({packaging: text, "scripts/serve.sh": SERVE}, release="0.31.0")
    findings = results["scripts/serve.sh"].findings
    assert [(f.code, f.span.path, f.span.start_line) for f in findings] == [("RPL001", packaging, line) for line in lines]
    assert all(f.related[0].path == "scripts/serve.sh" for f in findings)
    assert "declared by the launch's own project" in findings[0].message
    assert "vLLM 0.31.0 loads every installed plugin of this group into every engine" in findings[0].message


def test_release_028_to_030_fall_back_to_v1(check) -> None:
    results = check({"pyproject.toml": PYPROJECT, "serve.sh": SERVE}, release="0.30.0")
    [finding] = results["serve.sh"].findings
    assert (finding.code, finding.span.path, finding.span.start_line) == ("RPL004", "pyproject.toml", 9)
    assert "counts every installed plugin of this group as a custom logits processor" in finding.message
    assert 'vLLM 0.30.0 says "sampling distribution replay requires Model Runner V2"' in finding.message


def test_forced_v2_refuses_the_plugin_on_028(check) -> None:
    results = check({"pyproject.toml": PYPROJECT, "serve.sh": "VLLM_USE_V2_MODEL_RUNNER=1 " + SERVE}, release="0.28.0")
    [finding] = results["serve.sh"].findings
    assert finding.code == "RPL004" and "Model Runner V2 does not yet support: custom logits processors" in finding.message


def test_runner_variable_and_plugin_both_reported(check) -> None:
    results = check({"pyproject.toml": PYPROJECT, "serve.sh": "VLLM_USE_V2_MODEL_RUNNER=0 " + SERVE}, release="0.33.0")
    assert sorted(f.code for f in results["serve.sh"].findings) == ["RPL001", "RPL004"]


def test_requirements_install_a_plugin_folder(check) -> None:
    files = {
        "plugins/ban/pyproject.toml": PYPROJECT,
        "requirements.txt": "vllm==0.32.0\n-e ./plugins/ban\n",
        "deploy/serve.sh": SERVE,
    }
    results = check(files)
    [finding] = results["deploy/serve.sh"].findings
    assert (finding.code, finding.span.path) == ("RPL001", os.path.join("plugins", "ban", "pyproject.toml"))
    assert "installed by requirements.txt:2 `-e ./plugins/ban`" in finding.message


def test_dockerfile_installs_a_copied_plugin(check) -> None:
    dockerfile = (
        "FROM vllm/vllm-openai:v0.32.0\n"
        "COPY plugins/ban /opt/ban\n"
        "RUN pip install --no-cache-dir /opt/ban\n"
        'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
    )
    results = check({"plugins/ban/setup.py": SETUP_PY, "Dockerfile": dockerfile})
    [finding] = results["Dockerfile"].findings
    assert finding.code == "RPL001" and "installed by Dockerfile:3 `pip install /opt/ban`" in finding.message


def test_dockerfile_workdir_and_editable_install(check) -> None:
    dockerfile = (
        "FROM vllm/vllm-openai:v0.31.0\nWORKDIR /app\nCOPY . .\nRUN pip install -e plugins/ban\n"
        'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
    )
    results = check({"plugins/ban/setup.cfg": SETUP_CFG, "docker/Dockerfile": dockerfile, "docker/plugins/ban/setup.cfg": SETUP_CFG})
    assert [f.code for f in results["docker/Dockerfile"].findings] == ["RPL001", "RPL001"]


@pytest.mark.parametrize(
    "files",
    [
        # vllm.general_plugins may register anything: not a logits processor.
        {"pyproject.toml": PYPROJECT.replace("vllm.logits_processors", "vllm.general_plugins"), "serve.sh": SERVE},
        # a plugin package without a replay launch
        {"pyproject.toml": PYPROJECT, "serve.sh": "vllm serve m --logprobs-mode processed_logprobs\n"},
        # a Dockerfile that copies the plugin but never installs it
        {
            "plugins/ban/pyproject.toml": PYPROJECT,
            "Dockerfile": "FROM vllm/vllm-openai:v0.31.0\nCOPY plugins/ban /opt/ban\n"
            'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n',
        },
        # a launch in a project of its own, below the plugin's
        {
            "pyproject.toml": PYPROJECT,
            "examples/app/pyproject.toml": '[project]\nname = "app"\nversion = "0"\n',
            "examples/app/serve.sh": SERVE,
        },
        # the group named only in a comment or another table
        {"pyproject.toml": '[project]\nname = "x"\n# [project.entry-points."vllm.logits_processors"]\n', "serve.sh": SERVE},
        # entry points computed at run time are not followed (setup.py is never run)
        {"setup.py": "from setuptools import setup\nsetup(entry_points=load('vllm.logits_processors'))\n", "serve.sh": SERVE},
        # a requirements line naming an index package or a folder outside the tree
        {"requirements.txt": "ban-words\nban @ file:///srv/ban\n", "serve.sh": SERVE},
    ],
    ids=["general-plugins", "no-replay", "copied-not-installed", "own-project", "comment", "computed", "not-a-tree-folder"],
)
def test_clean(check, files: dict[str, str]) -> None:
    results = check(files, release="0.31.0")
    launch = next(name for name in files if name.endswith(("serve.sh", "Dockerfile")))
    assert results[launch].findings == []


def test_tool_only_pyproject_does_not_hide_the_project(check) -> None:
    """A folder whose pyproject.toml holds only tool settings is part of the package above it."""
    files = {"pyproject.toml": PYPROJECT, "deploy/pyproject.toml": "[tool.ruff]\nline-length = 100\n", "deploy/serve.sh": SERVE}
    assert [f.code for f in check(files, release="0.31.0")["deploy/serve.sh"].findings] == ["RPL001"]


def test_suppressed_at_the_entry_point(check) -> None:
    text = PYPROJECT.replace('BanWords"', 'BanWords"  # replaylint: ignore[RPL001] masks are replayed by a trainer that applies it')
    assert check({"pyproject.toml": text, "serve.sh": SERVE}, release="0.31.0")["serve.sh"].findings == []


def test_broken_packaging_is_no_crash(check) -> None:
    files = {
        "pyproject.toml": '[project\n"vllm.logits_processors"',
        "setup.py": "setup(entry_points={'vllm.logits_processors': [",
        "serve.sh": SERVE,
    }
    results = check(files, release="0.31.0")
    assert results["serve.sh"].findings == [] and results["serve.sh"].internal_error is None


def test_a_new_entry_point_invalidates_the_cached_result(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "ban-words"\nversion = "1.0"\n')
    (tmp_path / "serve.sh").write_text(SERVE)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--target-vllm", "0.31.0", "serve.sh"]) == 0
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    assert main(["check", "--target-vllm", "0.31.0", "--output-format", "concise", "serve.sh"]) == 1
    assert "pyproject.toml:9:1: RPL001" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("line", "folder"),
    [
        ("-e .", "."),
        ("--editable=./plugins/ban", "./plugins/ban"),
        ("./plugins/ban[extra]", "./plugins/ban"),
        ("ban @ file:plugins/ban", "plugins/ban"),
        ("../ban ; python_version > '3.8'", "../ban"),
        ("ban-words==1.0", None),
        ("https://example.com/ban.tar.gz", None),
        ("./dist/ban-1.0-py3-none-any.whl", None),
        ("/srv/ban", None),
    ],
)
def test_local_folder(line: str, folder: str | None) -> None:
    assert local_folder(line) == folder


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "run.sh",
            "docker run --gpus all vllm/vllm-openai:latest --model m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n",
        ),
        (
            "Dockerfile",
            'FROM vllm/vllm-openai:v0.31.0\nCMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n',
        ),
        (
            "deploy.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.31.0\n"
            "    args: [--model, m, --return-sampling-mask, --logprobs-mode, processed_logprobs, --enable-scale-out]\n",
        ),
    ],
    ids=["docker-run", "dockerfile", "kubernetes"],
)
def test_launches_in_an_image_do_not_get_the_project_plugins(check, name: str, text: str) -> None:
    """The image holds what it installs, not the checkout: the project's own plugin is not in it."""
    assert check({"pyproject.toml": PYPROJECT, name: text}, release="0.31.0")[name].findings == []


def test_a_python_launch_gets_the_project_plugins(check) -> None:
    launch = 'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    results = check({"setup.cfg": SETUP_CFG, "src/app/rollout.py": launch}, release="0.34.0")
    assert [(f.code, f.span.path) for f in results["src/app/rollout.py"].findings] == [("RPL001", "setup.cfg"), ("RPL001", "setup.cfg")]


@pytest.mark.parametrize(
    "root",
    [
        '[project]\nname = "app"\ndependencies = ["ban-words"]\n\n[tool.uv.sources]\nban-words = { path = "plugins/ban", editable = true }\n',
        '[tool.poetry]\nname = "app"\n\n[tool.poetry.group.rl.dependencies]\nban-words = { path = "./plugins/ban", develop = true }\n',
        '[project]\nname = "app"\ndependencies = ["ban-words @ file:///${PROJECT_ROOT}/plugins/ban"]\n',
    ],
    ids=["uv-sources", "poetry-path", "project-root-url"],
)
def test_project_depends_on_a_plugin_folder(check, root: str) -> None:
    files = {"pyproject.toml": root, "plugins/ban/pyproject.toml": PYPROJECT, "scripts/serve.sh": SERVE}
    [finding] = check(files, release="0.31.0")["scripts/serve.sh"].findings
    assert finding.code == "RPL001" and "a dependency of pyproject.toml" in finding.message


def test_a_folder_outside_the_repository_is_not_read(tmp_path: Path, monkeypatch, capsys) -> None:
    """`-e ../outside` names a folder beyond the git top-level: replaylint reads nothing there."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "pyproject.toml").write_text(PYPROJECT)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "requirements.txt").write_text("-e ../outside\n")
    (repo / "serve.sh").write_text(SERVE)
    monkeypatch.chdir(repo)
    assert main(["check", "--no-cache", "--target-vllm", "0.31.0", "serve.sh"]) == 0
    (repo / "inside").mkdir()
    (repo / "inside" / "pyproject.toml").write_text(PYPROJECT)
    (repo / "requirements.txt").write_text("-e ../outside\n-e ./inside\n")
    assert main(["check", "--no-cache", "--target-vllm", "0.31.0", "--output-format", "concise", "serve.sh"]) == 1
    assert "inside/pyproject.toml:9:1: RPL001" in capsys.readouterr().out


def test_dockerfile_installs_a_requirements_file(check) -> None:
    dockerfile = (
        "FROM vllm/vllm-openai:v0.32.0\nWORKDIR /srv\nCOPY requirements.txt plugins ./\nCOPY plugins /srv/plugins\n"
        "RUN pip install -r requirements.txt\n"
        'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
    )
    files = {
        "requirements.txt": "numpy\n-e ./plugins/ban  # our processors\n",
        "plugins/ban/pyproject.toml": PYPROJECT,
        "Dockerfile": dockerfile,
    }
    [finding] = check(files)["Dockerfile"].findings
    assert finding.code == "RPL001" and "`pip install -r requirements.txt` (`./plugins/ban`)" in finding.message
