"""RPL102 over HTTP: a request the tree sends to a replay server it starts, with `top_k` at 0 or
below, or left out where the server's default for it is 0 (vLLM 0.34.0: `/inference/v1/generate`
takes `SamplingParams`' default; the OpenAI routes the server's generation config, else 0; a TRL
trainer sends its own default 0), in the server's file or another one."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from replaylint.cli.main import main
from tests.test_cross_file_clients import SERVE, TRL_SERVE, tree

GENERATE = (
    "import requests\n\n\n"
    "def sample(ids):\n"
    '    body = {{"token_ids": ids, "sampling_params": {params}}}\n'
    '    return requests.post("http://localhost:8000/inference/v1/generate", json=body).json()\n'
)
CHAT = (
    "from openai import OpenAI\n\n"
    'client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\n\n\n'
    "def ask(prompt):\n"
    '    return client.chat.completions.create(model="m", messages=[{{"role": "user", "content": prompt}}]{args})\n'
)


def rpl102(folder: Path, cache: bool = False) -> list[tuple[str, int, str]]:
    """(file, line, message) of the RPL102 findings of a run over the tree."""
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "json", "--target-vllm", "0.34.0", *(() if cache else ("--no-cache",)), "."])
    finally:
        os.chdir(cwd)
    found = [(f["filename"], f["location"]["row"], f["message"]) for f in json.loads(out.getvalue()) if f["code"] == "RPL102"]
    return sorted(found)


@pytest.mark.parametrize(
    ("params", "line", "words"),
    [
        ('{"temperature": 1.0, "max_tokens": 64}', 6, "SamplingParams' default top_k is 0"),
        ('{"temperature": 1.0, "top_k": 0}', 5, '`"top_k": 0` in a request to the replay server started at serve.sh:2'),
        ('{"temperature": 1.0, "top_k": -1}', 5, '`"top_k": -1`'),
    ],
)
def test_a_generate_body_without_a_positive_top_k(tmp_path: Path, params: str, line: int, words: str) -> None:
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--enable-scale-out"), "sample.py": GENERATE.format(params=params)})
    [(path, row, message)] = rpl102(tmp_path)
    assert (path, row) == ("sample.py", line) and words in message
    assert 'vLLM 0.34.0 says "sampling distribution replay requires top_k > 0' in message


@pytest.mark.parametrize(
    "params",
    [
        '{"temperature": 1.0, "top_k": 20}',
        "PARAMS",  # from elsewhere: it may set top_k
        '{"top_k": K}',  # a value known at run time
        '{"top_k": 20, **EXTRA}',
    ],
)
def test_a_generate_body_that_bounds_top_k_or_may(tmp_path: Path, params: str) -> None:
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--enable-scale-out"), "sample.py": GENERATE.format(params=params)})
    assert rpl102(tmp_path) == []


@pytest.mark.parametrize(
    ("flags", "args", "expected"),
    [
        pytest.param("", "", [], id="the model's generation_config.json may set top_k"),
        pytest.param("--generation-config auto", "", [], id="auto: the model's file, not in the tree"),
        pytest.param("--generation-config ./gen", "", [], id="a folder of its own"),
        pytest.param("--generation-config vllm", "", [7], id="vllm: no generation config, the OpenAI default 0"),
        pytest.param("--generation-config vllm", ', extra_body={"top_k": 20}', [], id="the request sets it"),
        pytest.param("--generation-config vllm", ', extra_body={"top_k": 0}', [7], id="the request sets 0"),
        pytest.param("--generation-config vllm --override-generation-config '{\"top_k\": 20}'", "", [], id="the server's override sets it"),
        pytest.param(
            "--generation-config vllm --override-generation-config '{\"temperature\": 0.7}'", "", [7], id="an override without top_k"
        ),
        pytest.param("--generation-config vllm", ", **OPTIONS", [], id="options from elsewhere"),
        pytest.param("", ', extra_body={"top_k": -1}', [7], id="a top_k that disables top-k, whatever the server's default"),
    ],
)
def test_an_openai_request_to_a_server_in_another_file(tmp_path: Path, flags: str, args: str, expected: list) -> None:
    tree(tmp_path, {"serve.sh": SERVE.format(flags=flags), "ask.py": CHAT.format(args=args)})
    found = rpl102(tmp_path)
    assert [row for _, row, _ in found] == expected
    if expected and not args:
        assert "`--generation-config vllm` loads no generation config, so top_k is the OpenAI default" in found[0][2]


def test_a_model_folder_whose_generation_config_sets_no_top_k(tmp_path: Path) -> None:
    """The tree holds the model: its generation_config.json is the server's default, here without top_k."""
    server = (
        "import subprocess\nimport requests\n\n"
        'subprocess.Popen(["vllm", "serve", "models/policy", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])\n'
        'requests.post("http://localhost:8000/v1/completions", json={"prompt": "hi", "temperature": 1.0})\n'
    )
    files = {"models/policy/config.json": '{"vocab_size": 151936}\n', "run.py": server}
    tree(tmp_path, {**files, "models/policy/generation_config.json": '{"temperature": 0.6, "top_p": 0.95}\n'})
    [(path, row, message)] = rpl102(tmp_path)
    assert (path, row) == ("run.py", 5) and "the model's generation_config.json sets none" in message
    tree(tmp_path, {"models/policy/generation_config.json": '{"temperature": 0.6, "top_k": 20}\n'})
    assert rpl102(tmp_path) == []


def test_a_trl_trainer_sends_its_default_top_k(tmp_path: Path) -> None:
    train = 'from trl import GRPOConfig\n\nargs = GRPOConfig(output_dir="o", use_vllm=True, vllm_mode="server"{more})\n'
    tree(tmp_path, {"requirements.txt": "trl==1.16.0\n", "serve.sh": TRL_SERVE.format(port=""), "train.py": train.format(more="")})
    [(path, row, message)] = rpl102(tmp_path)
    assert (path, row) == ("train.py", 3) and "TRL sends its default top_k=0 with every request" in message
    tree(tmp_path, {"train.py": train.format(more=", top_k=50")})
    assert rpl102(tmp_path) == []
    tree(tmp_path, {"train.py": train.format(more=', generation_kwargs={"top_k": 40}')})
    assert rpl102(tmp_path) == []


def test_a_warm_run_reports_the_same(tmp_path: Path) -> None:
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--generation-config vllm"), "ask.py": CHAT.format(args="")})
    cold = rpl102(tmp_path, cache=True)
    assert [row for _, row, _ in cold] == [7] and rpl102(tmp_path, cache=True) == cold


MODEL_SERVE = "#!/bin/bash\nvllm serve {model} --return-sampling-mask --logprobs-mode processed_logprobs\n"


@pytest.mark.parametrize(
    ("model", "generation_config", "args", "expected"),
    [
        pytest.param("models/policy", '{"temperature": 0.6, "top_p": 0.95}', "", [7], id="no top_k in the model's file"),
        pytest.param("./models/policy/", '{"temperature": 0.6}', "", [7], id="the folder spelled with ./ and a slash"),
        pytest.param("--model=models/policy", "{}", "", [7], id="--model= and an empty file"),
        pytest.param("models/policy", '{"temperature": 0.6, "top_k": 20}', "", [], id="the model's file sets top_k"),
        pytest.param("models/policy", '{"temperature": 0.6}', ', extra_body={"top_k": 20}', [], id="the request sets it"),
        pytest.param("models/policy", '["not", "an", "object"]', "", [], id="no JSON object: vLLM builds one, not read"),
        pytest.param("models/other", '{"temperature": 0.6}', "", [], id="a model the tree does not hold"),
        pytest.param("models/policy --generation-config ./gen", '{"temperature": 0.6}', "", [], id="a generation config of its own"),
    ],
)
def test_the_model_folder_of_a_server_in_another_file(
    tmp_path: Path, model: str, generation_config: str, args: str, expected: list
) -> None:
    """The server's file names the model; the tree holds its folder: its generation_config.json is
    the default of the client's request in another file, as it is in the server's own file."""
    files = {"models/policy/config.json": '{"vocab_size": 151936}\n', "models/policy/generation_config.json": generation_config}
    tree(tmp_path, {**files, "serve.sh": MODEL_SERVE.format(model=model), "ask.py": CHAT.format(args=args)})
    found = rpl102(tmp_path)
    assert [(path, row) for path, row, _ in found] == [("ask.py", row) for row in expected]
    if expected:
        assert "started at serve.sh:2 does not set top_k: the model's generation_config.json sets none" in found[0][2]


def test_a_pre_commit_run_naming_the_client_reads_the_server_s_model_folder(tmp_path: Path) -> None:
    """The server's file is not named: it is recalled from the cache with its model, whose folder is read again."""
    files = {"models/policy/config.json": '{"vocab_size": 151936}\n', "models/policy/generation_config.json": '{"temperature": 0.6}'}
    tree(tmp_path, {**files, "serve.sh": MODEL_SERVE.format(model="models/policy"), "ask.py": CHAT.format(args="")})
    assert [row for _, row, _ in rpl102(tmp_path, cache=True)] == [7]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "json", "--target-vllm", "0.34.0", "ask.py"])
    finally:
        os.chdir(cwd)
    assert [(f["filename"], f["location"]["row"]) for f in json.loads(out.getvalue()) if f["code"] == "RPL102"] == [("ask.py", 7)]
    tree(tmp_path, {"models/policy/generation_config.json": '{"temperature": 0.6, "top_k": 20}'})
    assert rpl102(tmp_path, cache=True) == []
