"""HTTP clients made by a factory of the tree (`make_client(cfg)` returning `OpenAI(...)`), and
the defaults of the function a request is sent from when no caller in the tree calls it (as a
function's `**kwargs` and a script's `"$@"` are judged: what runs as written), with the
condition said at the client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cross_file_clients import SERVE, at_client, check, tree

CONFIG = (
    "from dataclasses import dataclass\n\n\n"
    "@dataclass(frozen=True)\n"
    "class SamplerConfig:\n"
    '    base_url: str = "http://localhost:8001/v1"\n'
    "    presence_penalty: float = 0.5\n"
)
SAMPLER = (
    "from openai import OpenAI\n\n"
    "from rl.config import SamplerConfig\n\n\n"
    "def make_client(cfg):\n"
    '    return OpenAI(base_url=cfg.base_url, api_key="EMPTY")\n\n\n'
    "def rollout(prompt, cfg=SamplerConfig()):\n"
    "    client = make_client(cfg)\n"
    '    return client.chat.completions.create(model="m", messages=[], presence_penalty=cfg.presence_penalty)\n'
)


def files(sampler: str = SAMPLER, **more: str) -> dict[str, str]:
    return {"serve.sh": SERVE.format(flags="--port 8001"), "rl/__init__.py": "", "rl/config.py": CONFIG, "rl/sampler.py": sampler, **more}


def test_a_factory_s_client_from_a_default_config_of_another_module(tmp_path: Path) -> None:
    """The default ties the client to the server (RPL301, saying so); the request's own fields
    read from it (`cfg.presence_penalty`) are not judged: a finding on them could not say the
    condition it rests on."""
    found = check(tree(tmp_path, files()), cache=False)
    assert at_client(found, "rl/sampler.py") == [("RPL301", 12)]
    [message] = [m for path, code, _, m, _ in found if path == "rl/sampler.py" and code == "RPL301"]
    assert (
        "the client's address is its default when the caller of `rollout` passes no `cfg`, leaving sampler.py:10's `SamplerConfig()`"
        in (message)
    )


@pytest.mark.parametrize(
    ("sampler", "more"),
    [
        pytest.param(
            SAMPLER.replace("def make_client(cfg):\n", "def make_client(cfg):\n    if cfg.remote:\n        return OpenAI()\n"),
            {},
            id="a factory with a return of unknown address",
        ),
        pytest.param(SAMPLER.replace("OpenAI(base_url=cfg.base_url", "OpenAI(base_url=cfg.url"), {}, id="a field the config lacks"),
        pytest.param(SAMPLER.replace("cfg=SamplerConfig()", "cfg"), {}, id="a parameter without a default"),
        pytest.param(SAMPLER + "\n\nrollout('hi', SamplerConfig(base_url=URL))\n", {}, id="called in its module with another config"),
        pytest.param(SAMPLER + "\n\nJOBS = [rollout]\n", {}, id="handed on in its module"),
        pytest.param(SAMPLER.replace("def rollout", "@app.task\ndef rollout"), {}, id="decorated: a framework calls it"),
        pytest.param(SAMPLER, {"train.py": "from rl.sampler import rollout\n\nrollout('hi', CFG)\n"}, id="called from another module"),
        pytest.param(SAMPLER, {"pyproject.toml": '[tool.replaylint]\nforwarded-arguments = "open"\n'}, id="forwarded arguments open"),
        pytest.param(
            SAMPLER.replace("def rollout", "class Sampler:\n    def rollout")
            .replace("\n    client", "\n        client")
            .replace("\n    return client", "\n        return client"),
            {},
            id="a method",
        ),
    ],
)
def test_a_client_whose_address_the_tree_does_not_decide_is_tied_to_nothing(tmp_path: Path, sampler: str, more: dict) -> None:
    assert at_client(check(tree(tmp_path, files(sampler, **more)), cache=False), "rl/sampler.py") == []


def test_a_factory_in_another_module_with_the_address_passed(tmp_path: Path) -> None:
    factory = 'from openai import AsyncOpenAI\n\n\ndef client_for(port):\n    return AsyncOpenAI(base_url=f"http://127.0.0.1:{port}/v1")\n'
    user = (
        "from rl.clients import client_for\n\n"
        "client = client_for(8001)\n\n\n"
        "async def ask(prompt):\n"
        '    return await client.completions.create(model="m", prompt=prompt)\n'
    )
    found = check(tree(tmp_path, files(**{"rl/clients.py": factory, "rl/ask.py": user})), cache=False)
    assert at_client(found, "rl/ask.py") == [("RPL301", 7)]
    tree(tmp_path, {"rl/ask.py": user.replace("client_for(8001)", "client_for(9000)")})
    assert at_client(check(tmp_path, cache=False), "rl/ask.py") == []


def test_a_posted_url_from_a_parameter_default(tmp_path: Path) -> None:
    sample = (
        "import requests\n\n\n"
        'def sample(prompt, url="http://localhost:8001/v1/completions"):\n'
        '    return requests.post(url, json={"prompt": prompt, "top_k": 20, "presence_penalty": 0.4}).json()\n'
    )
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--port 8001"), "sample.py": sample})
    found = check(tmp_path, cache=False)
    assert at_client(found, "sample.py") == [("RPL301", 5), ("RPL302", 5)]
    assert all(
        "when the caller of `sample` passes no `url`, leaving sample.py:4's" in message
        for path, _, _, message, _ in found
        if path == "sample.py"
    )
    tree(tmp_path, {"sample.py": sample + "\n\nsample('hi', url=REMOTE)\n"})
    assert at_client(check(tmp_path, cache=False), "sample.py") == []


def test_a_cached_client_scan_follows_a_change_of_forwarded_arguments(tmp_path: Path) -> None:
    """The clients store is keyed by the settings a scan reads: turning `forwarded-arguments`
    to "open" unties the factory's client in a warm run, though rl/sampler.py kept its stat."""
    tree(tmp_path, files())
    assert at_client(check(tmp_path), "rl/sampler.py") == [("RPL301", 12)]
    tree(tmp_path, {"pyproject.toml": '[tool.replaylint]\nforwarded-arguments = "open"\n'})
    assert at_client(check(tmp_path), "rl/sampler.py") == []
    tree(tmp_path, {"pyproject.toml": "[tool.replaylint]\n"})
    assert at_client(check(tmp_path), "rl/sampler.py") == [("RPL301", 12)]
