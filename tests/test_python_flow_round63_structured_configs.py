"""What held-out round 63 (tests/data/python_flow/h63_garg_*) made the value flow follow: an engine
built in a function of its own module (`init_vllm(seed, cfg)` of utils/vllm.py) from a local dict of
its parameter's fields (`params = {"return_sampling_mask": cfg.vllm.return_sampling_mask}`, then
`LLM(**params)`), called from another module with an `OmegaConf.structured(Config)` of a dataclass
tree: each call's config reaches the engine, and a default of the dataclass counts. A config given
at run time keeps the launch open (no finding rests on an absent or unknown setting)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((f["filename"].replace(str(tmp_path) + "/", ""), f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


def defaults(mask: str = "True", mode: str = "", top_k: str = "top_k: int = 20\n") -> str:
    return (
        "from dataclasses import dataclass, field\n"
        "@dataclass\n"
        "class VllmConfig:\n"
        "    model: str = 'Qwen/Qwen2.5-Math-1.5B'\n"
        f"    return_sampling_mask: bool = {mask}\n" + (f"    logprobs_mode: str = {mode!r}\n" if mode else "") + "@dataclass\n"  # line 5
        "class TrainingConfig:\n"
        "    temperature: float = 1.0\n"
        f"    {top_k}"
        "@dataclass\n"
        "class Config:\n"
        "    vllm: VllmConfig = field(default_factory=VllmConfig)\n"
        "    training: TrainingConfig = field(default_factory=TrainingConfig)\n"
    )


CONSTANTS = "from omegaconf import OmegaConf\nfrom configs.defaults import Config\nDEFAULT_CONFIG = OmegaConf.structured(Config)\n"

ENGINE = (
    "from vllm import LLM\n"
    "def init_vllm(seed, cfg):\n"
    "    params = {\n"
    "        'model': cfg.vllm.model,\n"
    "        'return_sampling_mask': cfg.vllm.return_sampling_mask,\n"
    "MODE"
    "    }\n"
    "    return LLM(**params)\n"
)

MAIN = (
    "import argparse\n"
    "from omegaconf import OmegaConf\n"
    "from utils.constants import DEFAULT_CONFIG\n"
    "from utils.engine import init_vllm\n"
    "from vllm import SamplingParams\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--config', type=str, default=None)\n"
    "args = parser.parse_args()\n"
    "if args.config is not None:\n"
    "    config = OmegaConf.merge(DEFAULT_CONFIG, OmegaConf.load(args.config))\n"
    "else:\n"
    "    config = DEFAULT_CONFIG\n"
    "llm = init_vllm(1337, config)\n"
    "REQUEST"
)

TOP_K = "params = SamplingParams(temperature=config.training.temperature, top_k=config.training.top_k)\nllm.generate(['q'], params)\n"
NO_TOP_K = "params = SamplingParams(temperature=config.training.temperature)\nllm.generate(['q'], params)\n"  # line 14


def tree(defaults_text: str, mode_line: str = "", request: str = TOP_K, main: str = MAIN) -> dict[str, str]:
    return {
        "configs/defaults.py": defaults_text,
        "utils/constants.py": CONSTANTS,
        "utils/engine.py": ENGINE.replace("MODE", mode_line),
        "train.py": main.replace("REQUEST", request),
    }


def test_a_dataclass_default_mask_reaching_a_dict_built_engine_in_another_module_is_reported_at_the_default(tmp_path: Path) -> None:
    assert check(tmp_path, tree(defaults())) == [("configs/defaults.py", 5, "RPL003")]


def test_the_same_with_the_mode_as_a_dataclass_default_is_clean(tmp_path: Path) -> None:
    mode = "        'logprobs_mode': cfg.vllm.logprobs_mode,\n"
    assert check(tmp_path, tree(defaults(mode="processed_logprobs"), mode)) == []


def test_a_request_without_top_k_of_the_structured_config_is_reported(tmp_path: Path) -> None:
    mode = "        'logprobs_mode': cfg.vllm.logprobs_mode,\n"
    assert check(tmp_path, tree(defaults(mode="processed_logprobs"), mode, NO_TOP_K)) == [("train.py", 14, "RPL102")]


def test_the_request_default_of_the_dataclass_counts_for_top_k(tmp_path: Path) -> None:
    mode = "        'logprobs_mode': cfg.vllm.logprobs_mode,\n"
    files = tree(defaults(mode="processed_logprobs", top_k="top_k: int = -1\n"), mode)
    assert check(tmp_path, files) == [("configs/defaults.py", 10, "RPL102")]


def test_a_dict_filled_key_by_key_from_the_parameter_is_followed_too(tmp_path: Path) -> None:
    files = tree(defaults())
    files["utils/engine.py"] = (
        "from vllm import LLM\n"
        "def init_vllm(seed, cfg):\n"
        "    engine_kwargs = dict(model=cfg.vllm.model)\n"
        "    engine_kwargs['return_sampling_mask'] = cfg.vllm.return_sampling_mask\n"
        "    return LLM(**engine_kwargs)\n"
    )
    assert check(tmp_path, files) == [("configs/defaults.py", 5, "RPL003")]


@pytest.mark.parametrize(
    "given",
    [
        "OmegaConf.load(args.config)",  # the whole config from a file named when the program runs
        "OmegaConf.create(json.loads(sys.stdin.read()))",  # or read from its input
    ],
)
def test_a_config_given_at_run_time_keeps_the_launch_open(tmp_path: Path, given: str) -> None:
    main = "import json\nimport sys\n" + MAIN.replace("config = DEFAULT_CONFIG\n", f"config = {given}\n")
    assert check(tmp_path, tree(defaults(), main=main)) == []


def test_a_builder_no_module_of_the_tree_calls_stays_silent(tmp_path: Path) -> None:
    files = tree(defaults())
    files["train.py"] = "print('no engine here')\n"
    assert check(tmp_path, files) == []
