"""What held-out round 43's TapeAgents cases (tests/data/python_flow/h43_tapeagents_*) taught so far:
a command string started with `subprocess.Popen(cmd, **process_args)` runs in a shell when the
options dict it spreads says `"shell": True`; a config file's blank value joined as `--{k} {v}`
(`enforce-eager: ""`) is the flag's own, not words the run may add; and a `--{key}` flag is placed
where its name is decided (the config file's key), not at the f-string's `--`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MANAGER = """import os
import subprocess

from omegaconf import OmegaConf


def start_llm(kwargs, port):
    kwargs_str = " ".join([f"--{{k}} {{v}}" for k, v in kwargs.items()]) if kwargs else ""
    cmd = (
        f"CUDA_VISIBLE_DEVICES=0 "
        f"python -m vllm.entrypoints.openai.api_server "
        f"--model m "
        f"--port {{port}} "
        f"{{kwargs_str}}"
    )
    process_args = {{"shell": {shell}, "stdout": subprocess.DEVNULL}}
    return subprocess.Popen(cmd, **process_args)


def main():
    cfg = OmegaConf.load(os.path.join(os.path.dirname(__file__), "conf.yaml"))
    start_llm(dict(cfg.vllm_kwargs), 8080)


if __name__ == "__main__":
    main()
"""
CONF = """vllm_kwargs:
  enforce-eager: ""
{flags}"""
MASK_LINE = 3


def tree(flags: str, shell: str = "True") -> dict[str, str]:
    return {"manager.py": MANAGER.format(shell=shell), "conf.yaml": CONF.format(flags=flags)}


def test_a_mask_without_scale_out_is_reported_at_the_config_key(tmp_path: Path) -> None:
    flags = '  return-sampling-mask: ""\n  logprobs-mode: processed_logprobs\n'
    assert check(tmp_path, tree(flags)) == [("conf.yaml", MASK_LINE, "RPL301")]


def test_a_mask_without_a_mode_is_reported_at_the_config_key(tmp_path: Path) -> None:
    flags = '  enable-scale-out: ""\n  return-sampling-mask: ""\n'
    assert check(tmp_path, tree(flags)) == [("conf.yaml", MASK_LINE + 1, "RPL003")]


def test_scale_out_mask_and_processed_logprobs_are_clean(tmp_path: Path) -> None:
    flags = '  enable-scale-out: ""\n  return-sampling-mask: ""\n  logprobs-mode: processed_logprobs\n'
    assert check(tmp_path, tree(flags)) == []


def test_options_without_a_shell_are_not_read_as_a_command_string(tmp_path: Path) -> None:
    # `Popen("python -m ...")` without a shell runs a program of that whole name: nothing starts
    flags = '  return-sampling-mask: ""\n  logprobs-mode: processed_logprobs\n'
    assert check(tmp_path, tree(flags, shell="False")) == []


@pytest.mark.parametrize("blank", ['os.environ.get("EXTRA_ARGS", "")', 'os.getenv("EXTRA_ARGS", "")'])
def test_a_blank_environment_default_still_stands_for_any_words(tmp_path: Path, blank: str) -> None:
    # the run's EXTRA_ARGS may hold --enable-scale-out: the missing flag is not reported
    text = (
        "import os\nimport subprocess\n\n"
        f"extra = {blank}\n"
        'cmd = f"vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs {extra}"\n'
        'subprocess.Popen(cmd, **{"shell": True})\n'
    )
    assert check(tmp_path, {"serve.py": text}) == []
