"""A YAML config checked on its own (pre-commit names only the changed file) gets the findings
that the programs reading it by path (Hydra's `@hydra.main`, `OmegaConf.load`) place in it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.engine.project import config_readers
from tests.test_precommit import git, project, pytestmark  # noqa: F401  (the hook's project, and its skip)

# Imitates verl's main_ppo.py: `@hydra.main(config_path="config", config_name="ppo_trainer")`.
HYDRA = """\
import hydra
from vllm import LLM


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    return LLM(**cfg.vllm)


if __name__ == "__main__":
    main()
"""
GOOD = "vllm:\n  model: Qwen/Qwen3-8B\n  return_sampling_mask: true\n  logprobs_mode: processed_logprobs\ntrainer:\n  epochs: 3\n"
BAD = "vllm:\n  model: Qwen/Qwen3-8B\n  return_sampling_mask: true\ntrainer:\n  epochs: 3\n"
OMEGACONF = 'from omegaconf import OmegaConf\nfrom vllm import LLM\n\ncfg = OmegaConf.load("configs/rollout.yaml")\nLLM(**cfg.engine)\n'


@pytest.fixture
def tree(tmp_path: Path, monkeypatch):
    """Files written under a repository, checked from its root."""

    def write(files: dict[str, str]) -> Path:
        (tmp_path / ".git").mkdir(exist_ok=True)
        for name, text in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text)
        monkeypatch.chdir(tmp_path)
        return tmp_path

    return write


def checker(root: Path) -> Checker:
    return Checker(Config(), roots=(os.path.realpath(root),))


def test_a_hydra_config_alone_reports_at_its_line(tree) -> None:
    root = tree({"train.py": HYDRA, "conf/config.yaml": BAD})
    result = checker(root).check_file("conf/config.yaml")
    assert [(f.code, f.span.path, f.span.start_line) for f in result.findings] == [("RPL003", "conf/config.yaml", 3)]
    assert "when Hydra's command line does not set it" in result.findings[0].message
    assert "train.py" in result.dependencies  # a change in the program re-judges the config


def test_a_config_its_program_gets_right_is_clean(tree) -> None:
    root = tree({"train.py": HYDRA, "conf/config.yaml": GOOD})
    assert checker(root).check_file("conf/config.yaml").findings == []


def test_a_config_no_program_reads_is_not_judged_as_one(tree) -> None:
    root = tree({"train.py": HYDRA, "conf/config.yaml": GOOD, "conf/other.yaml": BAD})
    assert checker(root).check_file("conf/other.yaml").findings == []


def test_an_omegaconf_load_from_the_root_reads_the_config(tree) -> None:
    config = "engine:\n  model: m\n  return_sampling_mask: true\n"
    root = tree({"rollout.py": OMEGACONF, "configs/rollout.yaml": config})
    result = checker(root).check_file("configs/rollout.yaml")
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", 3)]


def test_the_programs_are_walked_once_per_folder_and_checked_once(tree, monkeypatch) -> None:
    files = {"train.py": HYDRA, "conf/config.yaml": BAD, "conf/config.yml": BAD, "conf/notes.yaml": "return_sampling_mask: x\n"}
    root = tree({**files, **{f"tools/tool{n}.py": "print('vllm')\n" for n in range(5)}})
    walks: list[str] = []
    original = config_readers.ConfigReaders._walk
    monkeypatch.setattr(config_readers.ConfigReaders, "_walk", lambda self, folder: walks.append(folder) or original(self, folder))
    checks = checker(root)
    checked: list[str] = []
    check_file = checks.check_file
    monkeypatch.setattr(checks, "check_file", lambda path: checked.append(path) or check_file(path))
    for name in ("conf/config.yaml", "conf/config.yml", "conf/notes.yaml"):
        checks.check_file(name)
    assert walks == ["."]
    assert checked.count("train.py") == 1


def test_the_walk_is_bounded(tree) -> None:
    many = {f"pkg{n // 10}/mod{n}.py": "import hydra\nfrom vllm import LLM\n" for n in range(config_readers.MAX_FILES + 20)}
    root = tree({**many, "zz/train.py": HYDRA, "zz/conf/config.yaml": BAD, "conf/config.yaml": BAD})
    readers = config_readers.ConfigReaders((os.path.realpath(root),), 1 << 20)
    assert len(readers._walk(".")) == config_readers.MAX_FILES
    assert readers.readers_of("zz/conf/config.yaml") == ["zz/train.py"]  # from the folder above the config's


def test_a_config_at_the_root_does_not_look_above_the_tree(tree) -> None:
    root = tree({"config.yaml": BAD})
    (root.parent / "outside.py").write_text(HYDRA.replace('config_path="conf"', 'config_path="' + root.name + '"'))
    readers = config_readers.ConfigReaders((os.path.realpath(root),), 1 << 20)
    assert readers.readers_of("config.yaml") == []


def test_pre_commit_blocks_a_commit_of_the_config_alone(project: Path) -> None:  # noqa: F811 (the fixture)
    """The real hook, handed only conf/config.yaml: the program that reads it is unchanged."""
    (project / "conf").mkdir()
    (project / "train.py").write_text(HYDRA)
    (project / "conf" / "config.yaml").write_text(GOOD)
    git(project, "add", "-A")
    first = git(project, "commit", "-m", "a Hydra app")
    assert first.returncode == 0, first.stdout + first.stderr

    (project / "conf" / "config.yaml").write_text(BAD)
    git(project, "add", "conf/config.yaml")
    blocked = git(project, "commit", "-m", "drop logprobs_mode")
    output = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0, output
    assert "conf/config.yaml:3:3: RPL003" in output and "Failed" in output


def test_a_program_linked_from_outside_the_tree_is_not_read(tree) -> None:
    root = tree({"conf/config.yaml": BAD})
    (root.parent / "elsewhere.py").write_text(HYDRA)
    (root / "train.py").symlink_to(root.parent / "elsewhere.py")
    assert checker(root).check_file("conf/config.yaml").findings == []
