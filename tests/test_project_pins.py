"""vLLM version detection from a project's pins (`replaylint.engine.project`)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from replaylint.engine import project
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.engine.project import ProjectPins
from replaylint.engine.project.requirements import parse_poetry_constraint, parse_requirement
from replaylint.engine.project.specifiers import admitted_releases, parse_specifier
from replaylint.engine.versions import releases_for
from replaylint.model import Launch, LaunchKind, Span, VersionHint
from replaylint.vllm.releases import Release


def R(text: str) -> Release:
    release = Release.parse(text)
    assert release is not None
    return release


def Rs(*texts: str) -> tuple[Release, ...]:
    return tuple(R(text) for text in texts)


def tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` below `root` (which becomes a git top-level) and return it."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def pins_of(root: Path, files: dict[str, str], launch: str = "serve.sh") -> tuple[Release, ...] | None:
    tree(root, files)
    return ProjectPins()(str(root / launch))


# pyproject.toml ---------------------------------------------------------------------------------


def test_project_dependencies_range(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": '[project]\nname = "app"\ndependencies = ["requests", "vllm>=0.30,<0.32"]\n'})
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) == Rs("0.30", "0.31")
    assert pins.describe_source(str(tmp_path / "serve.sh")).endswith("pyproject.toml [project] dependencies: vllm>=0.30,<0.32")


def test_optional_dependencies(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\nname = "app"\n[project.optional-dependencies]\nserve = ["vllm[audio]==0.31.2"]\n'}
    assert pins_of(tmp_path, files) == Rs("0.31.2")


def test_dependency_groups(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[dependency-groups]\nbase = ["vllm~=0.32.0"]\ndev = [{include-group = "base"}, "pytest"]\n'}
    assert pins_of(tmp_path, files) == Rs("0.32")


def test_uv_dev_dependencies(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[tool.uv]\ndev-dependencies = ["vllm==0.29.1"]\n'}
    assert pins_of(tmp_path, files) == Rs("0.29.1")


def test_uv_constraints_narrow_the_requirement(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\ndependencies = ["vllm>=0.28"]\n[tool.uv]\nconstraint-dependencies = ["vllm<0.30"]\n'}
    assert pins_of(tmp_path, files) == Rs("0.28", "0.29")


def test_uv_overrides_replace_the_requirement(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\ndependencies = ["vllm==0.29.0"]\n[tool.uv]\noverride-dependencies = ["vllm==0.32.1"]\n'}
    assert pins_of(tmp_path, files) == Rs("0.32.1")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('"^0.31.0"', ("0.31",)),
        ('"^0.31"', ("0.31",)),
        ('"~0.31"', ("0.31",)),
        ('"~0.31.2"', ("0.31.2",)),
        ('"0.31.*"', ("0.31",)),
        ('"0.32.1"', ("0.32.1",)),
        ('">=0.30,<0.32"', ("0.30", "0.31")),
        ('">= 0.30, < 0.32"', ("0.30", "0.31")),
        ('"0.29.0 || 0.33.0"', ("0.29", "0.33")),
        ('{version = "^0.30", extras = ["audio"]}', ("0.30",)),
        (
            '[{version = "0.30.0", markers = "sys_platform == \'darwin\'"}, {version = "0.31.0", markers = "sys_platform == \'linux\'"}]',
            ("0.30", "0.31"),
        ),
        ('{git = "https://github.com/vllm-project/vllm.git", tag = "v0.32.0"}', ("0.32",)),
    ],
)
def test_poetry_dependencies(tmp_path: Path, value: str, expected: tuple[str, ...]) -> None:
    files = {"pyproject.toml": f'[tool.poetry.dependencies]\npython = "^3.10"\nvllm = {value}\n'}
    assert pins_of(tmp_path, files) == Rs(*expected)


def test_poetry_groups(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[tool.poetry.group.gpu.dependencies]\nvLLM = "~0.30"\n'}
    tree(tmp_path, files)
    pins = ProjectPins()
    assert pins(str(tmp_path / "x.py")) == Rs("0.30")
    assert '[tool.poetry.group.gpu.dependencies]: vllm = "~0.30"' in pins.describe_source(str(tmp_path / "x.py"))


def test_poetry_star_and_path_dependencies_are_no_evidence(tmp_path: Path) -> None:
    assert pins_of(tmp_path, {"pyproject.toml": '[tool.poetry.dependencies]\nvllm = "*"\n'}) is None
    assert pins_of(tmp_path, {"pyproject.toml": '[tool.poetry.dependencies]\nvllm = {path = "../vllm", develop = true}\n'}) is None


def test_unpinned_vllm_is_no_evidence(tmp_path: Path) -> None:
    assert pins_of(tmp_path, {"pyproject.toml": '[project]\ndependencies = ["vllm", "vllm-flash-attn==2.6"]\n'}) is None


def test_no_project_at_all(tmp_path: Path) -> None:
    assert pins_of(tmp_path, {}) is None


# requirements files ----------------------------------------------------------------------------


def test_requirements_with_includes_markers_and_hashes(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "-r requirements/base.txt\n--constraint constraints.txt\n",
        "requirements/base.txt": (
            "# the engine\n"
            "--index-url https://example.invalid/simple\n"
            "vllm[audio] >= 0.28 ; sys_platform == 'linux' and python_version >= '3.10'  # serve\n"
            "torch==2.5.1 \\\n    --hash=sha256:00\n"
        ),
        "constraints.txt": "vllm==0.30.1 \\\n    --hash=sha256:deadbeef \\\n    --hash=sha256:feedface\n",
    }
    tree(tmp_path, files)
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) == Rs("0.30.1")
    source = pins.describe_source(str(tmp_path / "serve.sh"))
    assert os.path.join("requirements", "base.txt") + ":3: vllm[audio] >= 0.28 ; sys_platform" in source
    assert "constraints.txt:1: vllm==0.30.1" in source


def test_requirements_glued_and_long_include_options(tmp_path: Path) -> None:
    files = {
        "dev-requirements.txt": "-rsub/a.txt\n--requirement=sub/b.txt\n",
        "sub/a.txt": "vllm>=0.31\n",
        "sub/b.txt": "-c ../c.txt\n",
        "c.txt": "vllm<0.33\n",
    }
    assert pins_of(tmp_path, files) == Rs("0.31", "0.32")


def test_requirements_wheel_url_and_vcs_tag(tmp_path: Path) -> None:
    wheel = "https://files.example/vllm-0.32.1-cp38-abi3-manylinux1_x86_64.whl"
    assert pins_of(tmp_path, {"requirements.txt": f"{wheel}\n"}) == Rs("0.32.1")
    assert pins_of(tmp_path, {"requirements.txt": "vllm @ git+https://github.com/vllm-project/vllm@v0.29.0\n"}) == Rs("0.29")


def test_requirements_folder(tmp_path: Path) -> None:
    assert pins_of(tmp_path, {"requirements/gpu.txt": "vllm==0.28.2\n"}) == Rs("0.28.2")


def test_include_cycles_terminate(tmp_path: Path) -> None:
    files = {"requirements.txt": "-r a.txt\n", "a.txt": "-r b.txt\n-r a.txt\n", "b.txt": "-r a.txt\n-r requirements.txt\nvllm==0.31.1\n"}
    assert pins_of(tmp_path, files) == Rs("0.31.1")


def test_missing_include_and_environment_variables_are_skipped(tmp_path: Path) -> None:
    files = {"requirements.txt": "-r nowhere.txt\n-r ${ROOT}/x.txt\n-r https://example.invalid/r.txt\nvllm==${VLLM_VERSION}\n"}
    assert pins_of(tmp_path, files) is None


# lock files ------------------------------------------------------------------------------------

UV_LOCK = """version = 1
requires-python = ">=3.10"

[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }
dependencies = [{ name = "vllm" }]

[[package]]
name = "vllm"
version = "0.31.2"
source = { registry = "https://pypi.org/simple" }
"""


def test_uv_lock(tmp_path: Path) -> None:
    tree(tmp_path, {"uv.lock": UV_LOCK})
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) == Rs("0.31.2")
    assert pins.describe_source(str(tmp_path / "serve.sh")).endswith("uv.lock: vllm 0.31.2")


def test_uv_lock_skips_a_local_vllm_checkout(tmp_path: Path) -> None:
    lock = '[[package]]\nname = "vllm"\nversion = "0.34.0.dev12+g1234"\nsource = { editable = "." }\n'
    assert pins_of(tmp_path, {"uv.lock": lock}) is None


def test_uv_lock_forks_give_every_version(tmp_path: Path) -> None:
    lock = UV_LOCK + '\n[[package]]\nname = "vllm"\nversion = "0.33.0"\nsource = { registry = "https://pypi.org/simple" }\n'
    assert pins_of(tmp_path, {"uv.lock": lock}) == Rs("0.31.2", "0.33.0")


def test_poetry_lock(tmp_path: Path) -> None:
    lock = '[[package]]\nname = "vllm"\nversion = "0.30.2"\ndescription = "..."\noptional = false\n\n[metadata]\nlock-version = "2.0"\n'
    assert pins_of(tmp_path, {"poetry.lock": lock}) == Rs("0.30.2")


def test_pylock(tmp_path: Path) -> None:
    lock = 'lock-version = "1.0"\ncreated-by = "uv"\n\n[[packages]]\nname = "vllm"\nversion = "0.29.3"\n'
    assert pins_of(tmp_path, {"pylock.toml": lock}) == Rs("0.29.3")


def test_named_pylock_without_version_reads_the_wheel_name(tmp_path: Path) -> None:
    lock = '[[packages]]\nname = "vllm"\nwheels = [{ name = "vllm-0.32.2-cp38-abi3-manylinux1_x86_64.whl", url = "https://x/y.whl" }]\n'
    assert pins_of(tmp_path, {"pylock.gpu.toml": lock}) == Rs("0.32.2")


def test_requirements_lock(tmp_path: Path) -> None:
    lock = "# generated by rye\n-e file:.\nvllm==0.33.1\n    # via app\n"
    assert pins_of(tmp_path, {"requirements.lock": lock, "pyproject.toml": '[project]\ndependencies = ["vllm>=0.28"]\n'}) == Rs("0.33.1")


# precedence ------------------------------------------------------------------------------------


def test_lock_beats_a_pyproject_range(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\ndependencies = ["vllm>=0.30,<0.33"]\n', "uv.lock": UV_LOCK}
    assert pins_of(tmp_path, files) == Rs("0.31.2")


def test_exact_requirements_pin_beats_a_range_admitting_it(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\ndependencies = ["vllm>=0.30"]\n', "requirements.txt": "vllm==0.31.2\n"}
    assert pins_of(tmp_path, files) == Rs("0.31.2")


def test_exact_pin_outside_a_range_adds_to_it(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\ndependencies = ["vllm>=0.32"]\n', "requirements.txt": "vllm==0.30.1\n"}
    assert pins_of(tmp_path, files) == Rs("0.30.1", "0.32", "0.33", "0.34")


def test_nearest_project_wins(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[project]\ndependencies = ["vllm==0.29.0"]\n',
        "services/api/pyproject.toml": '[project]\ndependencies = ["vllm==0.32.0"]\n',
        "services/api/deploy/serve.sh": "vllm serve m\n",
    }
    tree(tmp_path, files)
    pins = ProjectPins()
    assert pins(str(tmp_path / "services/api/deploy/serve.sh")) == Rs("0.32.0")
    assert pins(str(tmp_path / "services/other/serve.sh")) == Rs("0.29.0")
    assert pins(str(tmp_path / "serve.sh")) == Rs("0.29.0")


def test_a_project_without_vllm_pins_passes_the_question_up(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "vllm==0.30.0\n",
        "client/pyproject.toml": '[project]\nname = "client"\ndependencies = ["httpx", "vllm"]\n',
    }
    assert pins_of(tmp_path, files, "client/serve.sh") == Rs("0.30.0")


def test_workspace_member_takes_the_workspace_lock(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.uv.workspace]\nmembers = ["packages/*"]\n',
        "uv.lock": UV_LOCK,
        "packages/server/pyproject.toml": '[project]\ndependencies = ["vllm>=0.30"]\n',
    }
    assert pins_of(tmp_path, files, "packages/server/serve.sh") == Rs("0.31.2")


def test_a_lock_above_that_contradicts_the_declaration_is_not_taken(tmp_path: Path) -> None:
    files = {"uv.lock": UV_LOCK, "legacy/requirements.txt": "vllm>=0.32\n"}
    assert pins_of(tmp_path, files, "legacy/serve.sh") == Rs("0.32", "0.33", "0.34")


def test_the_walk_stops_at_the_git_top_level(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("vllm==0.29.0\n")
    repository = tmp_path / "repo"
    repository.mkdir()
    assert pins_of(repository, {"src/serve.sh": ""}, "src/serve.sh") is None
    assert ProjectPins()(str(tmp_path / "other" / "serve.sh")) == Rs("0.29.0")


def test_the_walk_stops_at_the_root_hint(tmp_path: Path) -> None:
    tree(tmp_path, {"requirements.txt": "vllm==0.29.0\n"})
    assert ProjectPins(root_hint=str(tmp_path / "app"))(str(tmp_path / "app" / "serve.sh")) is None
    assert ProjectPins(root_hint=str(tmp_path / "elsewhere"))(str(tmp_path / "app" / "serve.sh")) == Rs("0.29.0")


def _launch(path: str, hint: tuple[str, ...] | None = None) -> Launch:
    span = Span(path, 1, 1, 1, 1, 0, 0)
    return Launch(LaunchKind.CLI, span, {}, version_hint=VersionHint(hint, "image tag", span) if hint else None)


def test_the_launch_hint_beats_the_project_pins(tmp_path: Path) -> None:
    tree(tmp_path, {"uv.lock": UV_LOCK})
    path = str(tmp_path / "serve.sh")
    pins = ProjectPins()
    assert releases_for(_launch(path, ("0.33.0",)), Config(), pins) == Rs("0.33.0")
    assert releases_for(_launch(path), Config(), pins) == Rs("0.31.2")


def test_project_pins_beat_configured_target_but_not_a_forced_one(tmp_path: Path) -> None:
    tree(tmp_path, {"uv.lock": UV_LOCK})
    path = str(tmp_path / "serve.sh")
    config = Config(target_vllm=R("0.29"))
    assert releases_for(_launch(path), config, ProjectPins()) == Rs("0.31.2")
    config.target_vllm_forced = True
    assert releases_for(_launch(path), config, ProjectPins()) == Rs("0.29")


def test_checker_judges_a_launch_at_its_project_pin(tmp_path: Path) -> None:
    tree(tmp_path, {"requirements.txt": "vllm<0.28\n"})
    launch = tmp_path / "run.py"
    launch.write_text('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n')
    result = Checker(Config(), ProjectPins()).check_file(str(launch))
    assert [finding.code for finding in result.findings] == ["RPL007"]
    assert "vLLM 0.27.1 says" in result.findings[0].message


# ranges ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        (">=0.30,<0.32", ("0.30", "0.31")),
        ("~=0.31.0", ("0.31",)),
        ("~=0.31", ("0.31", "0.32", "0.33", "0.34")),
        ("!=0.30.*", ("0.28", "0.29", "0.31", "0.32", "0.33", "0.34")),
        ("!=0.30.0", ("0.28", "0.29", "0.30.1", "0.31", "0.32", "0.33", "0.34")),
        (">=0.31.2,<0.33", ("0.31.2", "0.32")),
        (">0.31", ("0.31.1", "0.32", "0.33", "0.34")),
        ("<=0.29", ("0.28", "0.29")),
        ("==0.31", ("0.31",)),
        ("==0.31.2", ("0.31.2",)),
        ("===0.31.2", ("0.31.2",)),
        ("==0.31.2+cu124", ("0.31.2",)),
        (">=0.31.0rc1,<0.32", ("0.31",)),
        # both sides of 0.28: only the releases with replay are judged
        (">=0.25", ("0.28", "0.29", "0.30", "0.31", "0.32", "0.33", "0.34")),
        (">=0.20,<0.29", ("0.28",)),
        # only old releases: the newest of them, where replay does not exist
        ("<0.28", ("0.27.1",)),
        ("<0.20", ("0.19",)),
        ("==0.26.3", ("0.26.3",)),
        (">=0.34", ("0.34",)),
        # only releases newer than replaylint knows: the lowest of them
        (">=0.35", ("0.35",)),
        (">0.35.0", ("0.35.1",)),
        ("==1.2.0", ("1.2",)),
        # nothing at all
        (">=0.32,<0.30", ()),
    ],
)
def test_ranges_are_judged_at_every_admitted_release(specifier: str, expected: tuple[str, ...]) -> None:
    spec = parse_specifier(specifier)
    assert spec is not None
    assert admitted_releases(spec) == Rs(*expected)


def test_old_exact_pins_give_way_to_newer_ones_across_files(tmp_path: Path) -> None:
    files = {"requirements-legacy.txt": "vllm==0.26.0\n", "requirements.txt": "vllm==0.30.0\n"}
    assert pins_of(tmp_path, files) == Rs("0.30.0")
    assert pins_of(tmp_path / "x", {"requirements-legacy.txt": "vllm==0.26.0\n"}) == Rs("0.26.0")


@pytest.mark.parametrize(
    ("constraint", "pep440"),
    [
        ("^0.31.0", ">=0.31.0,<0.32"),
        ("^1.2", ">=1.2,<2"),
        ("^0.0.3", ">=0.0.3,<0.0.4"),
        ("^0", ">=0,<1"),
        ("~1.2.3", ">=1.2.3,<1.3"),
        ("~1", ">=1,<2"),
        ("0.31.*", "==0.31.*"),
        ("0.31.2", "==0.31.2"),
    ],
)
def test_poetry_constraints(constraint: str, pep440: str) -> None:
    poetry = parse_poetry_constraint(constraint)
    assert poetry is not None
    assert poetry == parse_specifier(pep440)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("vllm", ""),
        ("vLLM[audio,tensorizer] (>=0.30, <0.32) ; python_version >= '3.10'", ">=0.30,<0.32"),
        ("vllm==0.31.2; sys_platform == 'linux'", "==0.31.2"),
        ("vllm @ https://x/vllm-0.31.2-cp38-abi3-manylinux1_x86_64.whl ; sys_platform == 'linux'", "==0.31.2"),
    ],
)
def test_requirement_syntax(text: str, expected: str) -> None:
    assert parse_requirement(text) == parse_specifier(expected)


@pytest.mark.parametrize("text", ["vllm-flash-attn==2.6", "vllmx>=1", "vllm==${V}", "vllm @ file:///src/vllm", "vllm>=0.30 <0.32"])
def test_requirements_without_evidence(text: str) -> None:
    assert parse_requirement(text) is None


def test_specifiers_agree_with_packaging() -> None:
    """The small PEP 440 parser answers as `packaging` does for every final release it is asked about."""
    specifiers = pytest.importorskip("packaging.specifiers")
    hypothesis = pytest.importorskip("hypothesis")
    strategies = pytest.importorskip("hypothesis.strategies")
    versions = strategies.sampled_from(
        ["0.27", "0.28.0", "0.29.1", "0.30", "0.30.0", "0.30.1", "0.31", "0.31.2", "0.32.0rc1", "0.33.post1", "1", "0.30.0.1"]
    )
    operators = strategies.sampled_from(["==", "!=", ">=", "<=", ">", "<", "~="])
    clause = strategies.tuples(operators, versions, strategies.booleans()).map(
        lambda parts: f"{parts[0]}{parts[1]}.*" if parts[2] and parts[0] in ("==", "!=") else f"{parts[0]}{parts[1]}"
    )
    candidates = [Release(0, minor, patch) for minor in range(26, 35) for patch in range(4)] + [Release(1, 0)]

    @hypothesis.settings(max_examples=200, deadline=None)
    @hypothesis.given(strategies.lists(clause, min_size=1, max_size=3))
    def agree(clauses: list[str]) -> None:
        text = ",".join(clauses)
        try:
            theirs = specifiers.SpecifierSet(text)
        except specifiers.InvalidSpecifier:
            return
        ours = parse_specifier(text)
        assert ours is not None, text
        for release in candidates:
            assert ours.admits(release) == theirs.contains(str(release)), (text, release)

    agree()


# malformed files -------------------------------------------------------------------------------


def test_broken_pyproject_is_skipped_with_a_note(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": '[project\ndependencies = ["vllm==0.31.0"]\n', "requirements.txt": "vllm==0.30.0\n"})
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) == Rs("0.30.0")
    assert len(pins.notes) == 1 and "pyproject.toml: not valid TOML" in pins.notes[0]


def test_broken_pyproject_without_vllm_is_skipped_quietly(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "[tool.black\nline-length = 100\n"})
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) is None
    assert pins.notes == []


def test_broken_lock_falls_back_to_the_declaration(tmp_path: Path) -> None:
    files = {"uv.lock": '[[package]\nname = "vllm"\n', "pyproject.toml": '[project]\ndependencies = ["vllm~=0.33.0"]\n'}
    assert pins_of(tmp_path, files) == Rs("0.33")


@pytest.mark.parametrize(
    "pyproject",
    [
        '[project]\ndependencies = "vllm==0.31.0"\n',
        "[project]\ndependencies = [1, 2]\n",
        '[project]\noptional-dependencies = ["vllm==0.31.0"]\n',
        '[tool]\npoetry = "vllm"\n',
        "[tool.poetry.dependencies]\nvllm = 3\n",
        "[tool.poetry.dependencies]\nvllm = {version = 3}\n",
        '[tool.poetry.group]\ngpu = ["vllm"]\n',
        '[project]\ndependencies = ["vllm>>0.31"]\n',
        '[tool.poetry.dependencies]\nvllm = "^banana"\n',
    ],
)
def test_wrongly_shaped_pyprojects_are_no_evidence(tmp_path: Path, pyproject: str) -> None:
    assert pins_of(tmp_path, {"pyproject.toml": pyproject}) is None


@pytest.mark.parametrize(
    "lock",
    [
        'package = "vllm"\n',
        "[[package]]\nname = 3\n",
        '[[packages]]\nname = "vllm"\nwheels = "x"\n',
        '[[package]]\nname = "vllm"\nversion = "latest"\n',
    ],
)
def test_wrongly_shaped_locks_are_no_evidence(tmp_path: Path, lock: str) -> None:
    assert pins_of(tmp_path, {"uv.lock": lock, "pylock.toml": lock}) is None


def test_a_range_admitting_nothing_is_ignored_with_a_note(tmp_path: Path) -> None:
    tree(tmp_path, {"requirements.txt": "vllm>=0.32,<0.30\n"})
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) is None
    assert "admits no release (>=0.32,<0.30)" in pins.notes[0]


def test_non_utf8_and_unreadable_files(tmp_path: Path) -> None:
    tree(tmp_path, {})
    (tmp_path / "requirements.txt").write_bytes(b"vllm==0.31.0  # \xff\n")
    pins = ProjectPins()
    assert pins(str(tmp_path / "serve.sh")) is None
    assert "not UTF-8" in pins.notes[0]
    (tmp_path / "requirements.txt").unlink()
    (tmp_path / "requirements.txt").mkdir()  # a directory where a file is expected
    assert ProjectPins()(str(tmp_path / "serve.sh")) is None


# caching ---------------------------------------------------------------------------------------


def test_every_pin_file_is_read_once_for_a_large_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\ndependencies = ["vllm>=0.30"]\n',
            "uv.lock": UV_LOCK,
            "requirements.txt": "-r requirements/base.txt\n",
            "requirements/base.txt": "vllm>=0.30\n",
        },
    )
    launches = []
    for package in range(100):
        directory = tmp_path / "services" / f"s{package}" / "deploy"
        directory.mkdir(parents=True)
        if package % 10 == 0:
            (directory.parent / "requirements.txt").write_text("vllm==0.32.0\n")
        launches += [str(directory / f"serve{index}.sh") for index in range(100)]
    opened: Counter[str] = Counter()
    listed: Counter[str] = Counter()
    real_read, real_listdir = project.files.read_regular, os.listdir

    def counting_read(path, *args, **kwargs):
        opened[os.fspath(path)] += 1
        return real_read(path, *args, **kwargs)

    def counting_listdir(path):
        listed[os.fspath(path)] += 1
        return real_listdir(path)

    monkeypatch.setattr(project.files, "read_regular", counting_read)
    monkeypatch.setattr(project.os, "listdir", counting_listdir)
    pins = ProjectPins()
    answers = Counter(pins(path) for path in launches)
    assert answers == {Rs("0.31.2"): 9000, Rs("0.32.0"): 1000}
    assert len(launches) == 10_000
    assert opened and max(opened.values()) == 1
    assert max(listed.values()) == 1
