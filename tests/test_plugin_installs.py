"""Logits-processor plugins a Dockerfile installs in ways beyond a shell-form `RUN pip install`
of a copied folder: exec-form RUNs, multi-stage builds (`COPY --from`: wheels built in one stage
and installed in the next, virtual environments and prefixes copied whole), and uv workspace
members installed with the project."""

from __future__ import annotations

import os

import pytest

from replaylint.frontends.dockerfile.installs import parse, split_command
from tests.test_plugins import PYPROJECT

SETUP_PY = """from setuptools import setup

setup(
    name="Ban.Words",
    entry_points={"vllm.logits_processors": ["ban = ban_words.procs:BanWords"]},
)
"""
SERVE = 'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
ENTRY = ("plugins", "ban", "pyproject.toml")


def _dockerfile(check, text: str, release: str | None = None, packaging: str = PYPROJECT, name: str = "pyproject.toml"):
    results = check({f"plugins/ban/{name}": packaging, "Dockerfile": text}, release=release)
    assert results["Dockerfile"].internal_error is None
    return results["Dockerfile"].findings


def _lines(findings) -> list[tuple[str, str, int]]:
    return [(f.code, f.span.path, f.span.start_line) for f in findings]


# exec form --------------------------------------------------------------------------------------

EXEC_FORM = {  # the Dockerfile, and the line its install command starts on
    "pip": ('FROM vllm/vllm-openai:v0.32.0\nCOPY . .\nRUN ["pip", "install", "./plugins/ban"]\n', 3),
    "python-m-pip-editable": (
        'FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/plugin\nRUN ["python3", "-m", "pip", "install", "-e", "/src/plugin"]\n',
        3,
    ),
    "uv-pip-system": (
        'FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/ban\nRUN ["uv", "pip", "install", "--system", "--no-deps", "/src/ban"]\n',
        3,
    ),
    "mount-and-continuations": (
        "FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/ban\n"
        "RUN --mount=type=cache,target=/root/.cache/pip \\\n"
        '    ["/usr/bin/python3.12", "-m", "pip", \\\n'
        "# a comment line inside the instruction\n"
        '     "install", "--no-cache-dir", \\\n'
        '     "/src/ban"]\n',
        4,
    ),
    "sh-c": (
        'FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/ban\nRUN ["/bin/bash", "-c", "pip install -U pip && pip install /src/ban"]\n',
        3,
    ),
    "venv-pip": (
        'FROM vllm/vllm-openai:v0.32.0\nENV PATH=/opt/venv/bin:$PATH\nCOPY plugins/ban /src/ban\nRUN ["/opt/venv/bin/pip", "install", "/src/ban"]\n',
        4,
    ),
}


@pytest.mark.parametrize(("text", "install_line"), EXEC_FORM.values(), ids=EXEC_FORM.keys())
def test_exec_form_installs_a_plugin_folder(check, text: str, install_line: int) -> None:
    [finding] = _dockerfile(check, text + SERVE)
    assert _lines([finding]) == [("RPL001", os.path.join(*ENTRY), 9)]
    assert [(span.path, span.start_line) for span in finding.related] == [
        ("Dockerfile", text.count("\n") + 1),
        ("Dockerfile", install_line),
    ]
    assert f"installed by Dockerfile:{install_line} `" in finding.message


@pytest.mark.parametrize(
    "run",
    [
        # exec form passes words on literally: `$PLUGIN` is no substitution, pip gets the word itself
        'ENV PLUGIN=/src/ban\nRUN ["pip", "install", "$PLUGIN"]\n',
        # `pip download` and `pip wheel` in the serving stage install nothing
        'RUN ["pip", "download", "-d", "/tmp/d", "/src/ban"]\n',
        'RUN ["pip", "wheel", "-w", "/tmp/w", "/src/ban"]\n',
        # `uv pip install` with no environment it could write to (no --system, no VIRTUAL_ENV)
        'RUN ["uv", "pip", "install", "/src/ban"]\n',
        # a target folder the engine's Python never reads (no PYTHONPATH)
        'RUN ["pip", "install", "--target", "/deps", "/src/ban"]\n',
        # a venv pip whose environment the command does not run in
        'RUN ["/opt/venv/bin/pip", "install", "/src/ban"]\n',
        # the word after an option that takes a value is no folder
        'RUN ["pip", "install", "--src", "/src/ban", "numpy"]\n',
    ],
    ids=["exec-no-substitution", "download", "wheel-only", "uv-no-env", "target-unread", "venv-not-on-path", "option-value"],
)
def test_exec_form_clean(check, run: str) -> None:
    assert _dockerfile(check, "FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/ban\n" + run + SERVE) == []


def test_target_folder_on_the_python_path(check) -> None:
    text = 'FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/ban\nRUN pip install -t /deps /src/ban\nENV PYTHONPATH="/deps:${PYTHONPATH}"\n'
    assert _lines(_dockerfile(check, text + SERVE)) == [("RPL001", os.path.join(*ENTRY), 9)]


def test_heredoc_with_continuations_and_an_activated_venv(check) -> None:
    text = (
        "FROM vllm/vllm-openai:v0.32.0\nCOPY plugins/ban /src/ban\nENV PATH=/opt/venv/bin:$PATH\n"
        "RUN <<EOF\nset -eux\n. /opt/venv/bin/activate\npip install \\\n    --no-deps \\\n    /src/ban\nEOF\n"
    )
    [finding] = _dockerfile(check, text + SERVE)
    assert finding.related[1].start_line == 7 and "`pip install /src/ban`" in finding.message


def test_release_030_reports_the_fallback_at_the_entry_point(check) -> None:
    text = 'FROM vllm/vllm-openai:v0.30.0\nCOPY plugins/ban /src/ban\nRUN ["pip", "install", "/src/ban"]\n' + SERVE
    [finding] = _dockerfile(check, text)
    assert _lines([finding]) == [("RPL004", os.path.join(*ENTRY), 9)]
    assert [span.start_line for span in finding.related] == [4, 3]


# multi-stage builds: wheels ---------------------------------------------------------------------

BUILD_STAGE = "FROM python:3.12-slim AS build\nCOPY plugins/ban /src/ban\n"
BUILDS = {
    "pip-wheel": "RUN pip wheel --no-deps --wheel-dir=/wheels /src/ban\n",
    "python-m-build": "RUN python -m build --wheel --outdir /wheels /src/ban\n",
    "uv-build": "WORKDIR /src/ban\nRUN uv build -o /wheels\n",
    "pip-wheel-workdir": "WORKDIR /wheels\nRUN python3 -m pip wheel /src/ban\n",
    "exec-uv-build": 'RUN ["uv", "build", "--wheel", "--out-dir", "/wheels", "/src/ban"]\n',
}
INSTALLS = {
    "glob": "COPY --from=build /wheels /tmp/wheels\nRUN pip install /tmp/wheels/*.whl && rm -rf /tmp/wheels\n",
    "file": "COPY --from=build /wheels/ /tmp/\nRUN pip install /tmp/ban_words-1.0-py3-none-any.whl\n",
    "find-links": "COPY --from=build /wheels /wheels\nRUN pip install --no-index --find-links=/wheels ban-words==1.0\n",
    "uv-find-links": 'COPY --from=build /wheels /wheels\nRUN ["uv", "pip", "install", "--system", "-f", "/wheels", "Ban_Words"]\n',
    "bind-mount": "RUN --mount=type=bind,from=build,source=/wheels,target=/mnt pip install /mnt/*.whl\n",
    "file-in-workdir": "WORKDIR /tmp/w\nCOPY --from=build /wheels/*.whl ./\nRUN pip install ban_words-1.0-py3-none-any.whl\n",
}


@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
@pytest.mark.parametrize("install", INSTALLS.values(), ids=INSTALLS.keys())
def test_wheel_built_in_one_stage_installed_in_the_next(check, build: str, install: str) -> None:
    text = BUILD_STAGE + build + "\nFROM vllm/vllm-openai:v0.33.0\n" + install + SERVE
    [finding] = _dockerfile(check, text)
    assert _lines([finding]) == [("RPL001", os.path.join(*ENTRY), 9)]
    install_line = text.splitlines().index(install.splitlines()[-1]) + 1
    assert finding.related[1].start_line == install_line
    assert "built by Dockerfile:" in finding.message and f"installed by Dockerfile:{install_line}" in finding.message


def test_sdist_and_setup_py_name(check) -> None:
    """`python -m build` makes an sdist too; its file is named after `setup(name=...)`."""
    text = (
        "FROM python:3.12 AS build\nCOPY plugins/ban /src/ban\nRUN python -m build /src/ban\n"
        "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /src/ban/dist /dist\nRUN pip install /dist/ban_words-*.tar.gz\n" + SERVE
    )
    assert _lines(_dockerfile(check, text, packaging=SETUP_PY, name="setup.py")) == [
        ("RPL001", os.path.join("plugins", "ban", "setup.py"), 5)
    ]


def test_numeric_stage(check) -> None:
    text = BUILD_STAGE + BUILDS["pip-wheel"] + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=0 /wheels /w\nRUN pip install /w/*\n" + SERVE
    assert len(_dockerfile(check, text)) == 1


WHEELS_CLEAN = {
    # a stage nothing copies from
    "not-copied": BUILD_STAGE + BUILDS["pip-wheel"] + "FROM vllm/vllm-openai:v0.33.0\n",
    # copied, never installed
    "not-installed": BUILD_STAGE + BUILDS["pip-wheel"] + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /wheels /wheels\n",
    # a glob that names another distribution
    "other-name": BUILD_STAGE
    + BUILDS["pip-wheel"]
    + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /wheels /w\nRUN pip install /w/flash_attn-*.whl\n",
    "find-links-other-name": BUILD_STAGE
    + BUILDS["pip-wheel"]
    + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /wheels /w\nRUN pip install -f /w flash-attn\n",
    # the stage name is an ARG: Docker does not substitute it, replaylint does not guess
    "arg-stage": "ARG BUILDER=build\n"
    + BUILD_STAGE
    + BUILDS["pip-wheel"]
    + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=${BUILDER} /wheels /w\nRUN pip install /w/*.whl\n",
    # from an image: what is in it is unknown
    "image": BUILD_STAGE
    + BUILDS["pip-wheel"]
    + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=org/wheels:1 /wheels /w\nRUN pip install /w/*.whl\n",
    # another folder of the build stage
    "other-folder": BUILD_STAGE
    + BUILDS["pip-wheel"]
    + "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /other /w\nRUN pip install /w/*.whl\n",
    # sdist only, installed as a wheel
    "sdist-only": "FROM python:3.12 AS build\nCOPY plugins/ban /src/ban\nRUN python -m build --sdist -o /d /src/ban\n"
    "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /d /d\nRUN pip install /d/*.whl\n",
}


@pytest.mark.parametrize("text", WHEELS_CLEAN.values(), ids=WHEELS_CLEAN.keys())
def test_wheels_clean(check, text: str) -> None:
    assert _dockerfile(check, text + SERVE) == []


def test_a_copy_from_an_image_hides_what_the_context_put_there(check) -> None:
    """The latest COPY to a path decides: an image's files over the checkout's plugin folder."""
    text = "FROM vllm/vllm-openai:v0.33.0\nCOPY plugins/ban /src/ban\nCOPY --from=org/patched:2 /ban /src/ban\nRUN pip install /src/ban\n"
    assert _dockerfile(check, text + SERVE) == []


def test_folder_copied_through_a_source_stage(check) -> None:
    text = (
        "FROM alpine AS sources\nWORKDIR /work\nCOPY plugins ./plugins\n"
        "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=SOURCES /work/plugins/ban /opt/ban\nRUN pip install /opt/ban\n" + SERVE
    )
    [finding] = _dockerfile(check, text)
    assert "installed by Dockerfile:6 `pip install /opt/ban`" in finding.message


# multi-stage builds: environments ----------------------------------------------------------------

ENVIRONMENTS = {
    "venv": "RUN python -m venv /opt/venv\nENV PATH=/opt/venv/bin:$PATH\nRUN pip install /src/ban\n"
    'FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /opt/venv /opt/venv\nENV PATH="/opt/venv/bin:$PATH"\n',
    "venv-virtual-env": "RUN uv venv /venv\nENV VIRTUAL_ENV=/venv\nRUN uv pip install /src/ban\n"
    "FROM vllm/vllm-openai:v0.33.0\nENV PATH=/venv/bin:/usr/local/bin:/usr/bin:/bin\nCOPY --from=build /venv /venv\n",
    "prefix": "RUN pip install --prefix=/install /src/ban\nFROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /install /usr/local\n",
    "system-site-packages": "RUN pip install /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /usr/local/lib/python3.12/site-packages /usr/local/lib/python3.12/site-packages\n",
    "target-into-site-packages": "RUN pip install --target /deps /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /deps /usr/local/lib/python3.12/dist-packages\n",
    "inherited-stage": "RUN pip install /src/ban\nFROM build AS base\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=base /usr/local /usr/local\n",
    # --user: root's `.local`, read by the serving stage's root
    "user": "RUN pip install --user --no-cache-dir /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /root/.local /root/.local\nENV PATH=/root/.local/bin:$PATH\n",
    "user-home": "USER app\nRUN pip install --user /src/ban\nFROM vllm/vllm-openai:v0.33.0\nENV HOME=/home/app\n"
    "COPY --from=build /home/app/.local /home/app/.local\n",
    # a `bin` on PATH that is no Python environment: pip is still the system's
    "cargo-on-path": "ENV PATH=/root/.cargo/bin:$PATH\nRUN pip install /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /usr/local /usr/local\n",
    # a venv named like none, known because a RUN made it and the COPY brought it
    "made-venv": "RUN virtualenv -p python3.12 /srv/py && /srv/py/bin/pip install /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /srv/py /srv/py\nENV PATH=/srv/py/bin:$PATH\n",
}


@pytest.mark.parametrize("stage", ENVIRONMENTS.values(), ids=ENVIRONMENTS.keys())
def test_environment_copied_from_a_build_stage(check, stage: str) -> None:
    [finding] = _dockerfile(check, "FROM python:3.12 AS build\nCOPY plugins/ban /src/ban\n" + stage + SERVE)
    assert _lines([finding]) == [("RPL001", os.path.join(*ENTRY), 9)]
    assert "copied by Dockerfile:" in finding.message and "`COPY --from=" in finding.message


ENVIRONMENTS_CLEAN = {
    # the venv is copied but the engine's command does not run in it
    "venv-not-on-path": "ENV PATH=/opt/venv/bin:$PATH\nRUN pip install /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /opt/venv /opt/venv\n",
    # only one package of site-packages is copied, not the plugin's metadata
    "one-package": "RUN pip install /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /usr/local/lib/python3.12/site-packages/numpy /usr/local/lib/python3.12/site-packages/numpy\n",
    # --user installs of root, read by another user
    "user-other-reader": "RUN pip install --user /src/ban\nFROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /root/.local /root/.local\n"
    "USER vllm\n",
    # a user whose name is a build argument: their home is unknown
    "user-unknown": "ARG APP_USER\nUSER $APP_USER\nRUN pip install --user /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /home /home\n",
    # a prefix copied somewhere Python does not look
    "prefix-elsewhere": "RUN pip install --prefix=/install /src/ban\nFROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /install /srv/install\n",
    # a prefix whose bin is on PATH: Python still reads its own prefix's site-packages
    "prefix-on-path": "RUN pip install --prefix /srv/tools /src/ban\nFROM vllm/vllm-openai:v0.33.0\n"
    "COPY --from=build /srv/tools /srv/tools\nENV PATH=/srv/tools/bin:$PATH\n",
    # a venv's pip in the build stage; the serving stage copies the system's folders
    "venv-install-system-copy": "ENV PATH=/opt/venv/bin:$PATH\nRUN python -m venv /opt/venv && pip install /src/ban\n"
    "FROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /usr/local /usr/local\n",
    # the binaries only
    "bin-only": "RUN pip install /src/ban\nFROM vllm/vllm-openai:v0.33.0\nCOPY --from=build /usr/local/bin /usr/local/bin\n",
}


@pytest.mark.parametrize("stage", ENVIRONMENTS_CLEAN.values(), ids=ENVIRONMENTS_CLEAN.keys())
def test_environment_copies_clean(check, stage: str) -> None:
    assert _dockerfile(check, "FROM python:3.12 AS build\nCOPY plugins/ban /src/ban\n" + stage + SERVE) == []


def test_a_launch_in_the_build_stage_itself(check) -> None:
    """Every stage no other builds on can be the image: the build stage's own launch gets its
    plugin, the serving stage's does not."""
    text = (
        "FROM vllm/vllm-openai:v0.33.0 AS build\nCOPY plugins/ban /src/ban\nRUN pip wheel -w /w /src/ban && pip install /w/*.whl\n"
        + SERVE
        + "FROM vllm/vllm-openai:v0.33.0\n"
        + SERVE
    )
    assert [f.related[0].start_line for f in _dockerfile(check, text)] == [4]


# the command reader ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["pip", "install", "x"], ("install", 0, 2)),
        (["PIP_NO_CACHE_DIR=1", "sudo", "/usr/bin/pip3.12", "wheel", "x"], ("wheel", 2, 4)),
        (["python3", "-m", "pip", "install", "x"], ("install", 0, 4)),
        (["uv", "pip", "install", "x"], ("install", 0, 3)),
        (["uv", "build"], ("build", 0, 2)),
        (["python", "-m", "build"], ("build", 0, 3)),
        (["echo", "pip", "install", "x"], None),
        (["pip", "download", "x"], None),
        (["uv", "pip", "compile", "x"], None),
    ],
)
def test_split_command(words: list[str], expected) -> None:
    assert split_command(words) == expected


def test_parse_options() -> None:
    arguments = parse("install", ("-e", "./a", "--editable=./b", "-r", "r.txt", "-t", "/deps", "--no-deps", "c", "-fhttps://x"))
    assert arguments.repeated["--editable"] == ["./a", "./b"] and arguments.repeated["--requirement"] == ["r.txt"]
    assert arguments.options["--target"] == "/deps" and "--no-deps" in arguments.options and arguments.positional == ["c"]
    assert parse("build", ("-w", "-o", "out", "src")).options == {"--wheel": "", "--outdir": "out"}


# uv workspaces -----------------------------------------------------------------------------------

SERVE_SH = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
WORKSPACE = '[tool.uv.workspace]\nmembers = ["packages/*"]\n'
MEMBER = PYPROJECT  # `ban-words`, with a build system and the entry point on line 9
APP = '[project]\nname = "app"\nversion = "0"\ndependencies = [{deps}]\n\n[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'


def _workspace(check, root: str, launch: str = "scripts/serve.sh", **extra: str):
    files = {"pyproject.toml": root, "packages/ban/pyproject.toml": MEMBER, launch: SERVE_SH, **extra}
    results = check(files, release="0.31.0")
    return results[launch].findings


WORKSPACE_FOUND = {
    "dependency": APP.format(deps='"ban-words>=1"') + "\n[tool.uv.sources]\nban-words = { workspace = true }\n\n" + WORKSPACE,
    "spelled-otherwise": APP.format(deps="\"Ban_Words[fast] ; python_version >= '3.10'\"")
    + "\n[tool.uv.sources]\nban-words = { workspace = true }\n\n"
    + WORKSPACE,
    "dev-group": APP.format(deps="")
    + '\n[dependency-groups]\ndev = ["ban-words"]\n\n[tool.uv.sources]\nban-words = { workspace = true }\n\n'
    + WORKSPACE,
    "legacy-dev-dependencies": APP.format(deps="")
    + '\n[tool.uv]\ndev-dependencies = ["ban-words"]\n\n[tool.uv.sources]\nban-words = { workspace = true }\n\n'
    + WORKSPACE,
    "chosen-default-group": APP.format(deps="")
    + '\n[dependency-groups]\nrl = ["ban-words"]\n\n[tool.uv]\ndefault-groups = ["dev", "rl"]\n\n'
    + "[tool.uv.sources]\nban-words = { workspace = true }\n\n"
    + WORKSPACE,
    "virtual-root": '[tool.uv.workspace]\nmembers = ["packages/*", "apps/*"]\n',
}


@pytest.mark.parametrize("root", WORKSPACE_FOUND.values(), ids=WORKSPACE_FOUND.keys())
def test_workspace_member_installed_with_the_project(check, root: str) -> None:
    [finding] = _workspace(check, root)
    assert _lines([finding]) == [("RPL001", os.path.join("packages", "ban", "pyproject.toml"), 9)]
    assert "a uv workspace member `uv sync` installs with pyproject.toml" in finding.message


def test_workspace_member_through_another_member(check) -> None:
    """The root depends on `core`, which depends on `ban-words`; the root's sources serve both."""
    root = APP.format(deps='"core"') + "\n[tool.uv.sources]\ncore = { workspace = true }\nban-words = { workspace = true }\n\n" + WORKSPACE
    core = APP.replace('"app"', '"core"').format(deps='"ban-words"')
    [finding] = _workspace(check, root, **{"packages/core/pyproject.toml": core})
    assert "(`ban-words` of core)" in finding.message


def test_launch_in_a_member_syncs_that_member(check) -> None:
    """`uv sync` run in a member's folder installs that member and what it depends on."""
    trainer = APP.replace('"app"', '"trainer"').format(deps='"ban-words"') + "\n[tool.uv.sources]\nban-words = { workspace = true }\n"
    extra = {"packages/trainer/pyproject.toml": trainer}
    findings = _workspace(check, APP.format(deps="") + "\n" + WORKSPACE, launch="packages/trainer/serve.sh", **extra)
    assert _lines(findings) == [("RPL001", os.path.join("packages", "ban", "pyproject.toml"), 9)]
    assert "installs with packages/trainer/pyproject.toml" in findings[0].message.replace(os.sep, "/")


WORKSPACE_CLEAN = {
    # a member nothing depends on: only `uv sync --all-packages` or `--package ban-words` installs it
    "not-a-dependency": APP.format(deps='"numpy"') + "\n" + WORKSPACE,
    # depended on, but not from the workspace (an index package of the same name)
    "no-workspace-source": APP.format(deps='"ban-words"') + "\n" + WORKSPACE,
    # the member is excluded from the workspace
    "excluded": APP.format(deps='"ban-words"')
    + "\n[tool.uv.sources]\nban-words = { workspace = true }\n\n"
    + WORKSPACE
    + 'exclude = ["packages/ban"]\n',
    # only an extra names it: `uv sync` installs no extras by default
    "extra": APP.format(deps="")
    + '\n[project.optional-dependencies]\nrl = ["ban-words"]\n\n[tool.uv.sources]\nban-words = { workspace = true }\n\n'
    + WORKSPACE,
    # a group that is not a default group
    "other-group": APP.format(deps="")
    + '\n[dependency-groups]\nrl = ["ban-words"]\n\n[tool.uv.sources]\nban-words = { workspace = true }\n\n'
    + WORKSPACE,
    # the members glob does not take the folder in
    "other-glob": APP.format(deps='"ban-words"')
    + '\n[tool.uv.sources]\nban-words = { workspace = true }\n\n[tool.uv.workspace]\nmembers = ["libs/*"]\n',
}


@pytest.mark.parametrize("root", WORKSPACE_CLEAN.values(), ids=WORKSPACE_CLEAN.keys())
def test_workspace_clean(check, root: str) -> None:
    assert _workspace(check, root) == []


def test_member_without_a_build_system_is_not_installed(check) -> None:
    """uv: "If the project does not define a build system, it will not be installed"."""
    member = MEMBER.replace('[build-system]\nrequires = ["setuptools"]\n', "")
    root = '[tool.uv.workspace]\nmembers = ["packages/*"]\n'
    assert (
        check({"pyproject.toml": root, "packages/ban/pyproject.toml": member, "serve.sh": SERVE_SH}, release="0.31.0")["serve.sh"].findings
        == []
    )
    forced = member + "\n[tool.uv]\npackage = true\n"
    results = check({"pyproject.toml": root, "packages/ban/pyproject.toml": forced, "serve.sh": SERVE_SH}, release="0.31.0")
    assert [f.code for f in results["serve.sh"].findings] == ["RPL001"]


# uv sync in a Dockerfile --------------------------------------------------------------------------

UV_IMAGE = "FROM ghcr.io/astral-sh/uv:python3.12-bookworm-slim\nWORKDIR /app\nCOPY . .\n"
VENV_PATH = 'ENV PATH="/app/.venv/bin:$PATH"\n'
SERVE_EXEC = 'CMD ["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
SOURCED = "\n[tool.uv.sources]\nban-words = { workspace = true }\n\n" + WORKSPACE
LOCK = 'version = 1\n\n[[package]]\nname = "app"\nsource = { editable = "." }\n\n[[package]]\nname = "ban-words"\nsource = { editable = "packages/ban" }\n'


def _synced(check, run: str, root: str, lock: bool = True, env: str = VENV_PATH):
    files = {"pyproject.toml": root, "packages/ban/pyproject.toml": MEMBER, "Dockerfile": UV_IMAGE + run + env + SERVE_EXEC}
    files.update({"uv.lock": LOCK} if lock else {})
    results = check(files, release="0.31.0")
    assert results["Dockerfile"].internal_error is None
    return results["Dockerfile"].findings


UV_SYNC_FOUND = {
    "dependency": ("RUN --mount=type=cache,target=/root/.cache/uv uv sync --locked --no-dev\n", APP.format(deps='"ban-words"') + SOURCED),
    "all-packages": ('RUN ["uv", "sync", "--frozen", "--all-packages"]\n', APP.format(deps="") + "\n" + WORKSPACE),
    "package": ("RUN uv sync --frozen --package ban-words\n", APP.format(deps="") + "\n" + WORKSPACE),
    "virtual-root": ("RUN uv sync --frozen\n", WORKSPACE),
    "the-project-itself": ("RUN uv sync\n", PYPROJECT),
    "project-option": ("WORKDIR /\nRUN uv sync --project /app\n", APP.format(deps='"ban-words"') + SOURCED),
    "dev-group": ("RUN uv sync --locked\n", APP.format(deps="") + '\n[dependency-groups]\ndev = ["ban-words"]\n' + SOURCED),
    "chosen-group": ("RUN uv sync --group rl\n", APP.format(deps="") + '\n[dependency-groups]\nrl = ["ban-words"]\n' + SOURCED),
}


@pytest.mark.parametrize(("run", "root"), UV_SYNC_FOUND.values(), ids=UV_SYNC_FOUND.keys())
def test_uv_sync_in_a_dockerfile(check, run: str, root: str) -> None:
    [finding] = _synced(check, run, root)
    assert finding.code == "RPL001" and "installed by Dockerfile:" in finding.message and "`uv sync" in finding.message
    assert finding.related[1].path == "Dockerfile"


def test_uv_sync_into_the_system_environment(check) -> None:
    run = "ENV UV_PROJECT_ENVIRONMENT=/usr/local\nRUN uv sync --frozen\n"
    assert len(_synced(check, run, APP.format(deps='"ban-words"') + SOURCED, env="")) == 1


def test_uv_sync_reads_explicit_members_without_a_lock(check) -> None:
    root = APP.format(deps='"ban-words"') + SOURCED.replace('"packages/*"', '"packages/ban"')
    assert len(_synced(check, "RUN uv sync\n", root, lock=False)) == 1


UV_SYNC_CLEAN = {
    "not-a-dependency": ("RUN uv sync --frozen\n", APP.format(deps="") + "\n" + WORKSPACE, True, VENV_PATH),
    "no-install-workspace": ("RUN uv sync --no-install-workspace\n", APP.format(deps='"ban-words"') + SOURCED, True, VENV_PATH),
    "no-install-package": ("RUN uv sync --no-install-package ban_words\n", APP.format(deps='"ban-words"') + SOURCED, True, VENV_PATH),
    "no-install-project": ("RUN uv sync --no-install-project\n", PYPROJECT, True, VENV_PATH),
    # a glob member and no lock: the Dockerfile cannot list the build context's folders
    "glob-without-lock": ("RUN uv sync\n", APP.format(deps='"ban-words"') + SOURCED, False, VENV_PATH),
    # the project's environment is not on the command's PATH
    "venv-not-on-path": ("RUN uv sync\n", APP.format(deps='"ban-words"') + SOURCED, True, ""),
    # another package of the workspace
    "other-package": ("RUN uv sync --package app\n", APP.format(deps="") + "\n" + WORKSPACE, True, VENV_PATH),
    # `--no-dev` leaves the dev group out
    "no-dev": ("RUN uv sync --no-dev\n", APP.format(deps="") + '\n[dependency-groups]\ndev = ["ban-words"]\n' + SOURCED, True, VENV_PATH),
}


@pytest.mark.parametrize(("run", "root", "lock", "env"), UV_SYNC_CLEAN.values(), ids=UV_SYNC_CLEAN.keys())
def test_uv_sync_clean(check, run: str, root: str, lock: bool, env: str) -> None:
    assert _synced(check, run, root, lock=lock, env=env) == []


@pytest.mark.parametrize(
    "files",
    [
        {"pyproject.toml": '[tool.uv.workspace]\nmembers = "packages/*"\n', "packages/ban/pyproject.toml": MEMBER},
        {"pyproject.toml": '[tool.uv.workspace]\nmembers = [1, "/abs", "../up", "packages/["]\n', "packages/ban/pyproject.toml": MEMBER},
        {"pyproject.toml": "[tool.uv.workspace\nmembers = [", "packages/ban/pyproject.toml": MEMBER},
        {
            "pyproject.toml": APP.format(deps='"ban-words"') + SOURCED,
            "uv.lock": "[[package]]\nsource = 3\n[[package]]\nsource = { editable = '/etc' }\n",
            "Dockerfile": UV_IMAGE + "RUN uv sync --package\nRUN uv sync --project $P\n" + VENV_PATH + SERVE_EXEC,
        },
        {
            "plugins/ban/pyproject.toml": PYPROJECT,
            "Dockerfile": "FROM vllm/vllm-openai:v0.33.0\nCOPY --from= /a /b\nCOPY --from=99 /a /b\nRUN --mount=type=bind pip install /b\n"
            'RUN --mount=target=/x,from=nowhere ["pip", "install", "/x/*.whl", "-e"]\nRUN pip install -r\nRUN pip\n' + SERVE,
        },
    ],
    ids=["members-not-a-list", "odd-members", "broken-toml", "broken-lock-and-options", "broken-dockerfile"],
)
def test_odd_input_is_no_crash_and_no_finding(check, files: dict[str, str]) -> None:
    launch = "Dockerfile" if "Dockerfile" in files else "serve.sh"
    results = check({launch: SERVE_SH, **files} if launch == "serve.sh" else files, release="0.31.0")
    assert results[launch].internal_error is None and results[launch].findings == []


def test_uv_sync_in_a_builder_stage_copied_with_the_app(check) -> None:
    """uv's multi-stage recipe: the builder syncs `/app/.venv`; the runtime copies `/app`."""
    dockerfile = (
        UV_IMAGE.replace("slim\n", "slim AS builder\n")
        + "RUN --mount=type=cache,target=/root/.cache/uv uv sync --frozen --no-dev\n"
        + "FROM python:3.12-slim\nCOPY --from=builder --chown=app:app /app /app\n"
        + VENV_PATH
        + SERVE_EXEC
    )
    files = {"pyproject.toml": APP.format(deps='"ban-words"') + SOURCED, "packages/ban/pyproject.toml": MEMBER, "uv.lock": LOCK}
    [finding] = check({**files, "Dockerfile": dockerfile}, release="0.31.0")["Dockerfile"].findings
    assert "copied by Dockerfile:6 `COPY --from=builder /app /app`" in finding.message
    without_path = dockerfile.replace(VENV_PATH, "")
    assert check({**files, "Dockerfile": without_path}, release="0.31.0")["Dockerfile"].findings == []
