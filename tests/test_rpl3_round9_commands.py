"""Issue 29 (RPL3xx round 9): a program whose config file is an argparse option (`open(args.config)`
of `args = parser.parse_args()`) that only the command line another file runs it with gives: a
compose service's `command: python -m rl.rollout --config configs/rollout.yaml`. The path is read
from the folder `python -m` finds the package in, and the file's `base_url` ties the client to the
replay server; a word compose or a shell substitutes, a service entrypoint of its own, a shell in
between or two command lines that differ leave it unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_command_lines import findings

SERVER = (
    "services:\n  policy:\n    image: vllm/vllm-openai:v0.34.0\n"
    "    command: [Qwen/Qwen3-8B, --return-sampling-mask, --logprobs-mode, processed_logprobs, --enable-scale-out]\n"
)
CONFIG = "policy:\n  base_url: http://policy:8000/v1\n  model: Qwen/Qwen3-8B\n"
CLIENTS = (
    "from openai import OpenAI\n\n\ndef make_policy_client(cfg):\n    return OpenAI(base_url=cfg['policy']['base_url'], api_key='EMPTY')\n"
)
ROLLOUT = (
    "import argparse\n\nimport yaml\n\nfrom rl.clients import make_policy_client\n\n\n"
    "def rollout(prompt, cfg):\n"
    "    client = make_policy_client(cfg)\n"
    "    return client.chat.completions.create(\n"
    "        model=cfg['policy']['model'], messages=[{'role': 'user', 'content': prompt}], temperature=1.0\n"
    "    )\n\n\n"
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--config', required=True)\n"
    "    parser.add_argument('--seed', type=int, default=0)\n"
    "    args = parser.parse_args()\n"
    "    with open(args.config) as f:\n"
    "        config = yaml.safe_load(f)\n"
    "    rollout('What is 17 * 23?', config)\n"
)
CHAT = ("RPL301", "rollout.py", 10)


def _check(tmp_path: Path, trainer: str, compose_at: str = "deploy/docker-compose.yml", rollout: str = ROLLOUT) -> list:
    files = {
        compose_at: SERVER + "\n  trainer:\n    build: ..\n" + trainer,
        "configs/rollout.yaml": CONFIG,
        "rl/__init__.py": "",
        "rl/clients.py": CLIENTS,
        "rl/rollout.py": rollout,
    }
    (tmp_path / ".git").mkdir()  # a repository: its files may be read (`files.trusted_roots`)
    return findings(tmp_path, files)


@pytest.mark.parametrize(
    ("trainer", "compose_at"),
    [
        ("    command: python -m rl.rollout --config configs/rollout.yaml\n", "deploy/docker-compose.yml"),  # the case
        ("    command: [python3, -m, rl.rollout, --seed, '3', --config=configs/rollout.yaml]\n", "deploy/docker-compose.yml"),
        ("    command:\n      - python\n      - -m\n      - rl.rollout\n      - --config\n      - configs/rollout.yaml\n", "compose.yaml"),
    ],
)
def test_the_command_line_that_runs_the_program_gives_its_config(tmp_path: Path, trainer: str, compose_at: str) -> None:
    assert _check(tmp_path, trainer, compose_at) == [CHAT]


def test_an_option_the_command_leaves_at_its_default(tmp_path: Path) -> None:
    rollout = ROLLOUT.replace("'--config', required=True", "'--config', default='configs/rollout.yaml'")
    assert _check(tmp_path, "    command: python -m rl.rollout --seed 1\n", rollout=rollout) == [CHAT]


@pytest.mark.parametrize(
    "trainer",
    [
        "    command: python -m rl.rollout --config $CONFIG\n",  # compose substitutes it
        "    entrypoint: [/app/start.sh]\n    command: python -m rl.rollout --config configs/rollout.yaml\n",  # the service's own entrypoint
        "    command: sh -c 'python -m rl.rollout --config configs/rollout.yaml'\n",  # a shell in between
        "    command: python -m rl.rollout --config configs/rollout.yaml --trace\n",  # an option the parser does not show
        "    command: python -m rl.other --config configs/rollout.yaml\n",  # another program
        # two services run it with different configs: which one a client reads is not known
        "    command: python -m rl.rollout --config configs/rollout.yaml\n"
        "  eval:\n    build: ..\n    command: python -m rl.rollout --config configs/eval.yaml\n",
    ],
)
def test_a_command_line_not_spelt_out_whole_leaves_the_config_unknown(tmp_path: Path, trainer: str) -> None:
    assert _check(tmp_path, trainer) == []


def test_nothing_runs_the_program(tmp_path: Path) -> None:
    assert _check(tmp_path, "    command: python -m rl.train\n") == []
