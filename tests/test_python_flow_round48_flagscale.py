"""What held-out round 48's FlagScale cases (tests/data/python_flow/h48_flagscale_aquila_yaml_*)
taught: a script of a namespace package (no `__init__.py`) that imports its own folder by its
dotted name from the repository's root is run from there, so the shell script at the root that
runs it is read; a config file's relative path that the run gives (`--config-path
examples/.../7b.yaml`) names the file from the run's working folder, and the parser's module
(`parse_config()` in arguments.py) reads the command line of the program whose top level calls it;
an engine and a request spread from that config's sections (`LLM(**llm_cfg)`,
`SamplingParams(**sampling_cfg)`) are judged by what the YAML file holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.frontends import relevant, triggers
from tests.test_python_flow_round10 import check

ARGUMENTS = """import argparse

from omegaconf import OmegaConf


def parse_config():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config-path", type=str, required=True)
    args = parser.parse_args()

    config = OmegaConf.load(args.config_path)
    assert config.get("llm", None) and config.get("generate", None)
    return config
"""
INFERENCE = """from vllm import LLM
from vllm.sampling_params import SamplingParams

from flagscale.inference.arguments import parse_config


def inference(cfg):
    prompts = cfg.generate.get("prompts", [])
    llm_cfg = cfg.get("llm", {})
    llm = LLM(**llm_cfg)
    sampling_cfg = cfg.generate.get("sampling", {})
    sampling_params = SamplingParams(**sampling_cfg)
    return llm.generate([{"prompt": p} for p in prompts], sampling_params)


if __name__ == "__main__":
    cfg = parse_config()
    inference(cfg)
"""
# the tricky spelling: the sections read as attributes and spread straight into the calls
ATTRIBUTES = """from vllm import LLM, SamplingParams

from flagscale.inference.arguments import parse_config


def inference(cfg):
    llm = LLM(**cfg.llm)
    sampling_params = SamplingParams(**cfg.generate.sampling)
    return llm.generate(list(cfg.generate.prompts), sampling_params)


if __name__ == "__main__":
    inference(parse_config())
"""
YAML = """llm:
  model: BAAI/Aquila-7B
  return_sampling_mask: true
{mode}
generate:
  prompts: ["The capital of France is"]
  sampling:
    top_p: 0.95
{top_k}    temperature: 0.9
"""
MODE = "  logprobs_mode: processed_logprobs\n"
TOP_K = "    top_k: 100\n"
RUN = "#!/bin/bash\nset -e\nexport PYTHONPATH=$(pwd):$PYTHONPATH\npython flagscale/inference/inference_aquila.py --config-path {path}\n"
CONFIG = "examples/aquila/conf/inference/7b.yaml"
MASK_LINE, SAMPLING_LINE = 3, INFERENCE.splitlines().index("    sampling_params = SamplingParams(**sampling_cfg)") + 1


def tree(mode: str = MODE, top_k: str = TOP_K, path: str = CONFIG, script: str = INFERENCE, run: str | None = RUN) -> dict[str, str]:
    files = {
        "flagscale/inference/arguments.py": ARGUMENTS,
        "flagscale/inference/inference_aquila.py": script,
        CONFIG: YAML.format(mode=mode, top_k=top_k),
    }
    if run is not None:
        files["run_inference.sh"] = run.format(path=path)
    return files


def test_the_processed_config_run_from_the_root_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree()) == []


def test_a_mask_without_the_mode_is_reported_in_the_yaml_the_run_names(tmp_path: Path) -> None:
    assert check(tmp_path, tree(mode="")) == [("7b.yaml", MASK_LINE, "RPL003")]


def test_a_sampling_section_without_top_k_is_reported_at_the_request(tmp_path: Path) -> None:
    found = check(tmp_path, tree(top_k=""))
    assert found == [("inference_aquila.py", SAMPLING_LINE, "RPL102")]


def test_sections_spread_as_attributes_are_read_the_same(tmp_path: Path) -> None:
    assert check(tmp_path, tree(script=ATTRIBUTES)) == []
    assert check(tmp_path / "mask", tree(mode="", script=ATTRIBUTES)) == [("7b.yaml", MASK_LINE, "RPL003")]


def test_a_packaged_tree_is_read_the_same(tmp_path: Path) -> None:
    packaged = {**tree(mode=""), "flagscale/__init__.py": "", "flagscale/inference/__init__.py": ""}
    assert check(tmp_path, packaged) == [("7b.yaml", MASK_LINE, "RPL003")]


def test_a_config_the_tree_does_not_hold_keeps_the_launch_open(tmp_path: Path) -> None:
    # the run names a file the user brings: the YAML beside it is not the one loaded
    assert check(tmp_path, tree(mode="", path="examples/aquila/conf/inference/70b.yaml")) == []


def test_an_absolute_config_path_keeps_the_launch_open(tmp_path: Path) -> None:
    assert check(tmp_path, tree(mode="", path="/data/conf/7b.yaml")) == []


def test_without_a_run_the_required_config_path_is_not_known(tmp_path: Path) -> None:
    assert check(tmp_path, tree(mode="", run=None)) == []


ENGINE_ONLY = (
    "from vllm import LLM\n\nfrom flagscale.inference.arguments import parse_config\n\ncfg = parse_config()\nllm = LLM(**{spread})\n"
)


@pytest.fixture(params=[False, True], ids=["word_by_word", "hyperscan"])
def one_pass(request):
    if request.param:
        pytest.importorskip("hyperscan")
    triggers.use_hyperscan(request.param)
    yield
    triggers._scanner, triggers._seen = None, 0


@pytest.mark.parametrize("spread", ["llm_cfg", "cfg.llm", 'config["llm"]', "self.engine_config"])
def test_an_engine_spread_from_a_config_section_passes_the_prefilter(one_pass, spread: str) -> None:
    # no mask word and no request in the file: the config a helper of the tree loads may hold it
    assert relevant("python", ENGINE_ONLY.format(spread=spread).encode())


@pytest.mark.parametrize("spread", ["llm_kwargs", "vars(args)"])
def test_an_engine_spread_from_other_mappings_stays_turned_away(one_pass, spread: str) -> None:
    assert not relevant("python", ENGINE_ONLY.format(spread=spread).encode())
