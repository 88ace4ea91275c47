"""What held-out round 23 (tests/data/python_flow/h23_*) made the value flow follow: an OmegaConf
config written out as YAML and read back (Super_MARIO's `OmegaConf.create(OmegaConf.to_yaml(config,
resolve=True))` after `OmegaConf.merge(OmegaConf.structured(BaseConfig), OmegaConf.load(path))`) is
the same config, so a dataclass default the YAML does not set still reaches the request. A key the
YAML sets, or a config merged from the command line, decides instead (or stays unknown)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

CONFIG = (
    "from dataclasses import dataclass, field\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class BaseConfig:\n"
    "    temperature: float = field(default=0.7, metadata={'help': 'diversity'})\n"
    "    top_k: int = field(default=-1, metadata={'help': '-1 considers all tokens'})\n"  # line 7
    "    model_dir: str = 'm'\n"
)
SOLVER = (
    "{imports}\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "from config import BaseConfig\n"
    "\n"
    "config = OmegaConf.merge(OmegaConf.structured(BaseConfig), {merged})\n"
    "config = {round_trip}\n"
    "llm = LLM(model=config.model_dir, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "params = SamplingParams(temperature=config.temperature, top_k=config.top_k)\n"
    "llm.generate(['p'], params)\n"
)
ROUND_TRIPS = [
    "OmegaConf.create(OmegaConf.to_yaml(config, resolve=True))",
    "OmegaConf.create(OmegaConf.to_yaml(config))",
    "omegaconf.OmegaConf.create(omegaconf.OmegaConf.to_yaml(config, resolve=True))",
]
LOADED = "OmegaConf.load('configs/run.yaml')"


def _files(round_trip: str, yaml: str = "temperature: 0.7\n", merged: str = LOADED) -> dict[str, str]:
    imports = "import omegaconf\nfrom omegaconf import OmegaConf"
    solver = SOLVER.format(imports=imports, merged=merged, round_trip=round_trip)
    return {"config.py": CONFIG, "solver.py": solver, "configs/run.yaml": yaml}


@pytest.mark.parametrize("round_trip", ROUND_TRIPS)
def test_a_config_written_as_yaml_and_read_back_keeps_its_defaults(tmp_path: Path, round_trip: str) -> None:
    assert check(tmp_path, _files(round_trip)) == [("config.py", 7, "RPL102")]


def test_a_dict_config_written_as_yaml_and_read_back(tmp_path: Path) -> None:
    files = {
        "solver.py": (
            "from omegaconf import OmegaConf\n"
            "from vllm import LLM, SamplingParams\n"
            "\n"
            "base = OmegaConf.create({'temperature': 0.0, 'top_k': 20})\n"  # line 4
            "config = OmegaConf.create(OmegaConf.to_yaml(base))\n"
            "llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
            "llm.generate(['p'], SamplingParams(temperature=config.temperature, top_k=config.top_k))\n"
        )
    }
    assert check(tmp_path, files) == [("solver.py", 4, "RPL101")]


@pytest.mark.parametrize("round_trip", ROUND_TRIPS[:2])
def test_the_key_the_yaml_sets_decides(tmp_path: Path, round_trip: str) -> None:
    assert check(tmp_path, _files(round_trip, yaml="temperature: 0.7\ntop_k: 40\n")) == []


def test_a_config_merged_from_the_command_line_stays_unknown(tmp_path: Path) -> None:
    merged = f"{LOADED}, OmegaConf.from_cli()"
    assert check(tmp_path, _files(ROUND_TRIPS[0], merged=merged)) == []


def test_yaml_text_from_outside_the_tree_stays_unknown(tmp_path: Path) -> None:
    files = _files("OmegaConf.create(OmegaConf.to_yaml(config))")
    files["solver.py"] = files["solver.py"].replace(
        "config = OmegaConf.create(OmegaConf.to_yaml(config))", "config = OmegaConf.create(sys.stdin.read())"
    )
    files["solver.py"] = "import sys\n" + files["solver.py"]
    assert check(tmp_path, files) == []
