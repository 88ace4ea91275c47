"""What held-out round 13 (tests/data/python_flow/h13_*) made the value flow follow around servers
and the engines Ray actors start: an `os.environ` write of the runner variable under a branch of
the actor's `__init__`, decided with the arguments of the actor's construction in another module
(a write whose branch is decided against never runs; one that cannot be decided is reported as
before)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# `os.environ[...] = "0"` in a Ray actor's `__init__` under a flag of the config it is made with

CONFIG = (
    "from dataclasses import dataclass\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class EngineConfig:\n"
    "    model: str = 'm'\n"
    "    legacy_runner: bool = {default}\n"
    "    runner: str = {runner!r}\n"
)
ACTOR = (
    "import os\n"
    "\n"
    "import ray\n"
    "from vllm import LLM\n"
    "\n"
    "from config import EngineConfig\n"
    "\n"
    "\n"
    "@ray.remote\n"
    "class Server:\n"
    "    def __init__(self, cfg: EngineConfig, rank: int):\n"
    "        {test}\n"
    "            {write}\n"
    "        self.llm = LLM(model=cfg.model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
)
LAUNCH = (
    "import ray\n"
    "\n"
    "from actor import Server\n"
    "from config import EngineConfig\n"
    "\n"
    "\n"
    "def create(cfg: EngineConfig):\n"
    "    return [Server.options(num_gpus=1).remote(cfg, rank) for rank in range(2)]\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    cfg = {made}\n"
    "    create(cfg)\n"
)
WRITES = [
    "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'",
    "os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')",
    "os.environ.update({'VLLM_USE_V2_MODEL_RUNNER': '0'})",
]


def _actor_tree(tmp_path: Path, *, default: str = "False", runner: str = "v2", test: str, write: str, made: str) -> list:
    files = {
        "config.py": CONFIG.format(default=default, runner=runner),
        "actor.py": ACTOR.format(test=test, write=write),
        "launch.py": LAUNCH.format(made=made),
    }
    return check(tmp_path, files)


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize(
    ("default", "runner", "test", "made"),
    [
        ("False", "v2", "if cfg.legacy_runner:", "EngineConfig()"),  # the dataclass default
        ("True", "v2", "if cfg.legacy_runner:", "EngineConfig(legacy_runner=False)"),  # the construction's keyword
        ("False", "v2", "if cfg.runner == 'v1':", "EngineConfig()"),
        ("True", "v2", "if not cfg.legacy_runner:", "EngineConfig()"),
    ],
)
def test_a_write_under_a_branch_the_construction_decides_against_never_runs(
    tmp_path: Path, write: str, default: str, runner: str, test: str, made: str
) -> None:
    assert _actor_tree(tmp_path, default=default, runner=runner, test=test, write=write, made=made) == []


@pytest.mark.parametrize(
    ("default", "runner", "test", "made"),
    [
        ("True", "v2", "if cfg.legacy_runner:", "EngineConfig()"),
        ("False", "v2", "if cfg.legacy_runner:", "EngineConfig(legacy_runner=True)"),
        ("False", "v1", "if cfg.runner == 'v1':", "EngineConfig()"),
        # not decided: the flag comes from the command line at run time
        ("False", "v2", "if cfg.legacy_runner:", "EngineConfig(legacy_runner=bool(int(input())))"),
        ("False", "v2", "if os.environ.get('LEGACY') == '1':", "EngineConfig()"),
    ],
)
def test_a_write_under_a_branch_taken_or_undecided_is_reported(tmp_path: Path, default: str, runner: str, test: str, made: str) -> None:
    found = _actor_tree(tmp_path, default=default, runner=runner, test=test, write=WRITES[0], made=made)
    assert found == [("actor.py", 13, "RPL206")]


def test_an_option_s_default_leaves_the_branch_undecided(tmp_path: Path) -> None:
    made = "EngineConfig(legacy_runner=ARGS.legacy_runner)"
    launch = LAUNCH.format(made=made).replace(
        "import ray\n",
        "import argparse\n\nimport ray\n\nPARSER = argparse.ArgumentParser()\nPARSER.add_argument('--legacy-runner', action='store_true')\nARGS = PARSER.parse_args()\n",
        1,
    )
    files = {
        "config.py": CONFIG.format(default="False", runner="v2"),
        "actor.py": ACTOR.format(test="if cfg.legacy_runner:", write=WRITES[0]),
        "launch.py": launch,
    }
    assert check(tmp_path, files) == [("actor.py", 13, "RPL206")]


def test_two_constructions_each_decide_their_own_engine(tmp_path: Path) -> None:
    launch = LAUNCH.format(made="EngineConfig()") + "    create(EngineConfig(legacy_runner=True))\n"
    files = {
        "config.py": CONFIG.format(default="False", runner="v2"),
        "actor.py": ACTOR.format(test="if cfg.legacy_runner:", write=WRITES[0]),
        "launch.py": launch,
    }
    assert check(tmp_path, files) == [("actor.py", 13, "RPL206")]


def test_a_module_level_write_under_a_false_constant_never_runs(tmp_path: Path) -> None:
    source = (
        "import os\n\nfrom vllm import LLM\n\nLEGACY = False\nif LEGACY:\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    )
    assert check(tmp_path, {"run.py": source}) == []
    assert check(tmp_path, {"run.py": source.replace("LEGACY = False", "LEGACY = True")}) == [("run.py", 7, "RPL206")]
