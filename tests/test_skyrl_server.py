"""SkyRL's standalone vLLM server (`python -m skyrl.backends.skyrl_train.inference_servers.vllm_server_actor`)
and its HTTP clients: `/skyrl/v1/generate` answers no `sampling_mask` in SkyRL 0.3.0 and 0.4.0
(RPL301 at the client), `/inference/v1/generate` does; clients are tied by the server's `--port`
(vLLM's default 8000) in the same file and across files; SkyRL's trainers' Ray servers, whose
ports are found at run time, take no client."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from replaylint.cli.main import main
from tests.conftest import check_files

MODULE = "skyrl.backends.skyrl_train.inference_servers.vllm_server_actor"
SERVE = (
    "#!/bin/bash\nset -euo pipefail\n"
    "CUDA_VISIBLE_DEVICES=0,1 uv run --isolated --extra fsdp -m " + MODULE + " \\\n"
    "  --model Qwen/Qwen3-8B --tensor-parallel-size 2 {port} \\\n"
    "  --return-sampling-mask --logprobs-mode processed_logprobs\n"
)
ROLLOUT = (
    "import requests\n\n\n"
    "def sample(ids):\n"
    '    body = {{"token_ids": ids, "sampling_params": {{"temperature": 1.0, "top_k": 20{extra}}}, "return_sample_support": True}}\n'
    '    return requests.post("{url}", json=body, timeout=600).json()\n'
)
IN_PROCESS = (
    "import subprocess\nimport sys\n\nimport httpx\n\n"
    "server = subprocess.Popen(\n"
    '    [sys.executable, "-m", "' + MODULE + '",\n'
    '     "--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n'
    ")\n"
    'http = httpx.Client(base_url="http://127.0.0.1:8000", timeout=600)\n\n\n'
    "def sample(ids):\n"
    '    return http.post("{route}", json={{"token_ids": ids, "sampling_params": {{"top_k": 20}}}}).json()\n'
)
TRAIN = (
    "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.{entry} \\\n"
    "  trainer.policy.model.path=Qwen/Qwen3-8B trainer.placement.colocate_all=false \\\n"
    "  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
    "  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs\n"
)


def check(folder: Path, files: dict[str, str], *paths: str) -> list[tuple[str, str, int, str, list[str]]]:
    """(file, code, line, message, related files) of the RPL3 findings of a run over `paths`."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "json", "--target-vllm", "0.34.0", "--workers", "1", *(paths or (".",))])
    finally:
        os.chdir(cwd)
    found = [
        (f["filename"], f["code"], f["location"]["row"], f["message"], [r["filename"] for r in f["related"]])
        for f in json.loads(out.getvalue())
        if f["code"].startswith("RPL3")
    ]
    return sorted(found)


def codes(found: list, name: str) -> list[str]:
    return [code for path, code, *_ in found if path == name]


@pytest.mark.parametrize(
    ("port", "url"),
    [
        ("--port 8001", "http://localhost:8001/skyrl/v1/generate"),
        ("--port=8001", "http://127.0.0.1:8001/skyrl/v1/generate/"),
        ("", "http://0.0.0.0:8000/skyrl/v1/generate"),  # vLLM's default port: SkyRL parses vLLM's words
        ('--host 0.0.0.0 --port "${PORT:-8001}"', "http://localhost:8001/skyrl/v1/generate"),
    ],
)
def test_a_client_of_skyrl_s_generate_route_in_another_file(tmp_path: Path, port: str, url: str) -> None:
    found = check(tmp_path, {"serve.sh": SERVE.format(port=port), "rollout.py": ROLLOUT.format(url=url, extra="")})
    assert [(path, code, line) for path, code, line, _, _ in found] == [("rollout.py", "RPL301", 6)]
    _, _, _, message, related = found[0]
    assert "reads /skyrl/v1/generate, which has no sampling_mask field" in message
    # No pin: both editions' answers, each with its lines.
    assert "SkyRL 0.4.0 answers token_ids, finish_reason, logprobs, routed_experts and rollout_sample_support" in message
    assert "SkyRL 0.3.0 answers token_ids, finish_reason, logprobs and routed_experts, vllm_server_actor.py:392-449" in message
    assert related == ["serve.sh"]


@pytest.mark.parametrize(
    ("pin", "says", "instead"),
    [
        ("skyrl==0.4.0", "SkyRL 0.4.0 answers", "use /inference/v1/generate"),  # 0.4.0 opens it itself
        ("skyrl==0.3.0", "SkyRL 0.3.0 answers", "use /inference/v1/generate with --enable-scale-out"),
    ],
)
def test_the_pinned_edition_says_what_it_answers_and_what_to_use(tmp_path: Path, pin: str, says: str, instead: str) -> None:
    files = {
        "serve.sh": SERVE.format(port="--port 8001"),
        "rollout.py": ROLLOUT.format(url="http://localhost:8001/skyrl/v1/generate", extra=""),
        "requirements.txt": pin + "\n",
    }
    [(_, code, _, message, _)] = check(tmp_path, files)
    assert code == "RPL301" and says in message and message.endswith(instead)
    assert ("SkyRL 0.3.0" in message) == (pin == "skyrl==0.3.0")


def test_a_script_that_starts_the_server_and_posts_to_it(tmp_path: Path) -> None:
    found = check(tmp_path, {"launch.py": IN_PROCESS.format(route="/skyrl/v1/generate")})
    assert [(path, code, line) for path, code, line, _, _ in found] == [("launch.py", "RPL301", 14)]
    assert "client of the replay server started at line 6 reads /skyrl/v1/generate" in found[0][3]


@pytest.mark.parametrize(
    "route",
    [
        "/inference/v1/generate",  # the scale-out route returns the masks
        "/skyrl/v1/load_lora_adapter",  # SkyRL's routes that generate nothing
        "/reset_prefix_cache",
        "/skyrl/v2/generate",  # a route no release read has: not known to drop the masks
    ],
)
def test_routes_that_return_the_masks_or_generate_nothing(tmp_path: Path, route: str) -> None:
    assert check(tmp_path, {"launch.py": IN_PROCESS.format(route=route)}) == []


@pytest.mark.parametrize(
    ("files", "why"),
    [
        (
            {
                "serve.sh": SERVE.format(port="--port 8001"),
                "rollout.py": ROLLOUT.format(url="http://localhost:8002/skyrl/v1/generate", extra=""),
            },
            "another port",
        ),
        (
            {
                "serve.sh": SERVE.format(port="--port $PORT"),
                "rollout.py": ROLLOUT.format(url="http://localhost:8001/skyrl/v1/generate", extra=""),
            },
            "a port not known here",
        ),
        (
            {
                "serve.sh": SERVE.format(port="--port 8001"),
                "rollout.py": ROLLOUT.format(url="http://rollout-node:8001/skyrl/v1/generate", extra=""),
            },
            "another host",
        ),
        (
            {
                "serve.sh": SERVE.format(port="").replace("--return-sampling-mask ", ""),
                "rollout.py": ROLLOUT.format(url="http://localhost:8000/skyrl/v1/generate", extra=""),
            },
            "no mask asked for",
        ),
        (
            {
                "serve.sh": "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n",
                "rollout.py": ROLLOUT.format(url="http://localhost:8000/skyrl/v1/generate", extra=""),
            },
            "vLLM's own server has no such route: nothing known of it",
        ),
        (
            {"run.sh": TRAIN.format(entry="serve"), "rollout.py": ROLLOUT.format(url="http://localhost:8000/skyrl/v1/generate", extra="")},
            "SkyRL's Ray servers take the first free port from 8000 on a node Ray picks",
        ),
        (
            {
                "run.sh": TRAIN.format(entry="main_base"),
                "rollout.py": ROLLOUT.format(url="http://localhost:8000/skyrl/v1/generate", extra=""),
            },
            "likewise the trainer's",
        ),
    ],
)
def test_clients_tied_to_nothing(tmp_path: Path, files: dict[str, str], why: str) -> None:
    assert "RPL301" not in [code for _, code, *_ in check(tmp_path, files)], why


def test_one_client_reading_the_masks_clears_the_generate_route(tmp_path: Path) -> None:
    files = {
        "serve.sh": SERVE.format(port="--port 8001"),
        "rollout.py": ROLLOUT.format(url="http://localhost:8001/skyrl/v1/generate", extra=""),
        "masks.py": ROLLOUT.format(url="http://localhost:8001/inference/v1/generate", extra=""),
    }
    assert check(tmp_path, files) == []


def test_a_penalty_the_client_sends_through_skyrl_s_route(tmp_path: Path) -> None:
    # `/skyrl/v1/generate` builds `SamplingParams(**body["sampling_params"])` (0.4.0 `:575`): the penalty reaches vLLM.
    files = {
        "serve.sh": SERVE.format(port="--port 8001"),
        "rollout.py": ROLLOUT.format(url="http://localhost:8001/inference/v1/generate", extra=', "repetition_penalty": 1.05'),
    }
    [(path, code, _, message, related)] = check(tmp_path, files)
    assert (path, code, related) == ("rollout.py", "RPL302", ["serve.sh"])
    assert "in a request to the replay server started at serve.sh:3" in message  # the client's own, not "sent by SkyRL"


def test_warm_and_pre_commit_runs_see_the_same_findings(tmp_path: Path) -> None:
    files = {
        "serve.sh": SERVE.format(port="--port 8001"),
        "rollout.py": ROLLOUT.format(url="http://localhost:8001/skyrl/v1/generate", extra=""),
    }
    cold = check(tmp_path, files)
    assert codes(cold, "rollout.py") == ["RPL301"]
    assert check(tmp_path, {}) == cold
    assert check(tmp_path, {}, "rollout.py") == cold


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ('{"token_ids": ids, "logprobs": logprobs, "sampling_mask": masks}', []),  # the fork may answer the mask
        ('{"token_ids": ids, "logprobs": logprobs}', ["RPL301"]),
    ],
)
def test_a_skyrl_fork_whose_server_may_answer_the_mask(tmp_path: Path, answer: str, expected: list[str]) -> None:
    fork = '@app.post("/skyrl/v1/generate")\nasync def _skyrl_generate(request):\n    return ' + answer + "\n"
    files = {
        "skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py": fork,
        "scripts/serve.sh": SERVE.format(port="--port 8001"),
        "rollout.py": ROLLOUT.format(url="http://localhost:8001/skyrl/v1/generate", extra=""),
    }
    assert codes(check(tmp_path, files), "rollout.py") == expected


def test_the_module_in_a_variable_with_a_default_and_an_async_session(tmp_path: Path) -> None:
    serve = (
        "#!/usr/bin/env bash\n"
        'SERVER_MODULE="${SERVER_MODULE:-' + MODULE + '}"\n'
        'VLLM_BATCH_INVARIANT=1 "$PYTHON" -m \\\n  "$SERVER_MODULE" \\\n'
        "  --model Qwen/Qwen3-4B --host 127.0.0.1 --port 9400 --tool-call-parser hermes \\\n"
        "  --return-sampling-mask --logprobs-mode processed_logprobs\n"
    )
    client = (
        "import httpx\n\n\n"
        "async def generate(ids, params):\n"
        '    async with httpx.AsyncClient(base_url="http://127.0.0.1:9400", timeout=None) as http:\n'
        '        answer = await http.post("/skyrl/v1/generate", json={"token_ids": ids, "sampling_params": params})\n'
        '        return answer.json()["choices"][0]\n'
    )
    found = check(tmp_path, {"serve.sh": serve, "agent/generate.py": client})
    assert [(path, code, line) for path, code, line, _, _ in found] == [("agent/generate.py", "RPL301", 6)]


def test_vllm_s_parser_reads_the_words_so_an_unknown_flag_is_refused(tmp_path: Path) -> None:
    results = check_files(tmp_path, {"serve.sh": SERVE.format(port="--port 8001")}, release="0.27.0")
    [finding] = [f for f in results["serve.sh"].findings if f.code == "RPL007"]
    # argparse refuses it (`_build_standalone_cli_args`), unlike SkyRL's trainers, which set attributes
    assert 'says "unrecognized arguments: --return-sampling-mask"' in finding.message


def test_a_compose_service_running_skyrl_s_server_is_reached_by_its_name(tmp_path: Path) -> None:
    compose = (
        "services:\n  rollout:\n    image: skyrl/skyrl-train:latest\n    command: >\n"
        "      python -m " + MODULE + "\n"
        "      --model Qwen/Qwen3-8B --port 8001 --return-sampling-mask --logprobs-mode processed_logprobs\n"
        "  trainer:\n    image: trainer:latest\n"
    )
    files = {"compose.yaml": compose, "agent.py": ROLLOUT.format(url="http://rollout:8001/skyrl/v1/generate", extra="")}
    assert [(path, code, related) for path, code, _, _, related in check(tmp_path, files)] == [("agent.py", "RPL301", ["compose.yaml"])]
    files["agent.py"] = ROLLOUT.format(url="http://trainer:8001/skyrl/v1/generate", extra="")  # another service
    assert check(tmp_path, files) == []


@pytest.mark.parametrize("launcher", ["python3.12 -m", "uv run --isolated --extra fsdp python -m", "srun -N1 python -u -m"])
def test_the_mask_in_vllm_s_config_file_and_other_launchers(tmp_path: Path, launcher: str) -> None:
    files = {
        "serve.sh": f"#!/bin/bash\n{launcher} {MODULE} --model m --port 8001 --config serve.yaml &\n",
        "serve.yaml": "return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n",
        "rollout.py": ROLLOUT.format(url="http://localhost:8001/skyrl/v1/generate", extra=""),
    }
    assert [(path, code) for path, code, *_ in check(tmp_path, files)] == [("rollout.py", "RPL301")]
    files["serve.yaml"] = "logprobs-mode: processed_logprobs\n"  # no mask: no replay server
    assert check(tmp_path, files) == []
