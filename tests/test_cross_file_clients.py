"""Clients tied to a replay server another file of the tree starts (`cross_file`): RPL301 and
RPL302 at the client, the server beside it, in a cold run, a warm one and a pre-commit run that
names one of the two files."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from replaylint.cli.main import main

SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs {flags}\n"
ROLLOUT = (
    "from openai import OpenAI\n\n"
    'client = OpenAI(base_url="{url}", api_key="EMPTY")\n\n\n'
    "def rollout(prompt):\n"
    '    return client.completions.create(model="m", prompt=prompt, presence_penalty={penalty})\n'
)
GENERATE = (
    "import requests\n\n\n"
    "def sample(ids):\n"
    '    body = {{"token_ids": ids, "sampling_params": {{"top_k": 20, "repetition_penalty": {penalty}}}}}\n'
    '    return requests.post("{url}", json=body).json()\n'
)
COMPOSE = (
    "services:\n  vllm:\n    image: vllm/vllm-openai:v0.34.0\n"
    "    command: [Qwen/Qwen3-8B, --return-sampling-mask, --logprobs-mode, processed_logprobs, --port, '8000']\n"
    "  trainer:\n    image: trainer:latest\n"
)


def check(folder: Path, *paths: str, cache: bool = True, workers: int = 1) -> list[tuple[str, str, int, str, list[str]]]:
    """(file, code, line, message, related files) of the RPL3 findings of a run over `paths`."""
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        options = ["--output-format", "json", "--target-vllm", "0.34.0", "--workers", str(workers), *(() if cache else ("--no-cache",))]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", *options, *(paths or (".",))])
    finally:
        os.chdir(cwd)
    found = [
        (f["filename"], f["code"], f["location"]["row"], f["message"], [r["filename"] for r in f["related"]])
        for f in json.loads(out.getvalue())
        if f["code"].startswith("RPL3")
    ]
    return sorted(found)


def tree(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def at_client(found: list, client: str) -> list[tuple[str, int]]:
    return [(code, line) for path, code, line, _, _ in found if path == client]


@pytest.mark.parametrize(
    ("flags", "url"),
    [
        ("--port 8001", "http://localhost:8001/v1"),
        ("--port=8001", "http://127.0.0.1:8001/v1"),
        ('--port "${PORT:-8001}"', "http://0.0.0.0:8001/v1"),  # a default the script uses when run as written
        ("", "http://localhost:8000/v1"),  # vLLM's default port
    ],
)
def test_a_client_of_a_server_a_script_starts(tmp_path: Path, flags: str, url: str) -> None:
    tree(tmp_path, {"scripts/serve.sh": SERVE.format(flags=flags), "rollout.py": ROLLOUT.format(url=url, penalty="0.5")})
    found = check(tmp_path)
    assert at_client(found, "rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    messages = {code: (message, related) for path, code, _, message, related in found if path == "rollout.py"}
    assert "client of the replay server started at scripts/serve.sh:2" in messages["RPL301"][0]
    assert "reads /v1/completions, which has no sampling_mask field" in messages["RPL301"][0]
    assert "`presence_penalty=0.5` in a request to the replay server started at scripts/serve.sh:2" in messages["RPL302"][0]
    assert messages["RPL302"][1] == ["scripts/serve.sh"]  # the server is the related place
    if "PORT" in flags:
        assert "(on port 8001 when `PORT` is unset)" in messages["RPL302"][0]


def test_a_compose_service_is_reached_by_its_name(tmp_path: Path) -> None:
    tree(tmp_path, {"compose.yaml": COMPOSE, "trainer/rollout.py": ROLLOUT.format(url="http://vllm:8000/v1", penalty="0.2")})
    assert at_client(check(tmp_path), "trainer/rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    # Another name reaches another machine: nothing the tree starts.
    tree(tmp_path, {"trainer/rollout.py": ROLLOUT.format(url="http://inference:8000/v1", penalty="0.2")})
    assert at_client(check(tmp_path), "trainer/rollout.py") == []


def test_a_compose_hostname_and_container_name_reach_the_service(tmp_path: Path) -> None:
    named = COMPOSE.replace("  vllm:\n", "  vllm:\n    hostname: policy\n    container_name: policy-vllm\n")
    for host in ("policy", "policy-vllm", "vllm"):
        tree(tmp_path, {"compose.yaml": named, "trainer/rollout.py": ROLLOUT.format(url=f"http://{host}:8000/v1", penalty="0.2")})
        assert at_client(check(tmp_path, cache=False), "trainer/rollout.py") == [("RPL301", 7), ("RPL302", 7)], host


@pytest.mark.parametrize(
    "ports, reached",
    [
        ("    ports: ['8000:8000']\n", True),
        ("    ports: ['127.0.0.1:8000:8000/tcp']\n", True),
        ("    ports: [{target: 8000, published: 8000}]\n", True),
        ("    network_mode: host\n", True),
        ("    ports: ['${PORT}:8000']\n", False),  # the host's port is not known: not tied
        ("    ports: ['${PORT:?set PORT}:8000']\n", False),  # required, no default
        ("    ports: ['${PORT:-9000}:8000']\n", False),  # its default is another port
        ("    ports: ['${PORT:+8000}:8000']\n", False),  # set only when PORT is: not known
        ("    ports: ['9000:8000']\n", False),  # localhost:9000 on the host, not :8000
        ("    ports: ['8000']\n", False),  # an ephemeral port of the host
        ("    ports: [{target: 8000}]\n", False),
        ("", False),  # published nowhere
    ],
)
def test_a_client_on_the_host_reaches_a_compose_service_only_where_it_publishes_its_port(tmp_path: Path, ports: str, reached: bool) -> None:
    """`localhost:8000` on the host is the service only through `ports: ["8000:8000"]` (or the
    host's network): a service published on another port, or on none, is not what the client
    reaches, and a finding there would be false. Its own name still reaches it."""
    compose = COMPOSE.replace("  trainer:\n", ports + "  trainer:\n")
    tree(tmp_path, {"compose.yaml": compose, "rollout.py": ROLLOUT.format(url="http://localhost:8000/v1", penalty="0.2")})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == ([("RPL301", 7), ("RPL302", 7)] if reached else [])
    tree(tmp_path, {"rollout.py": ROLLOUT.format(url="http://vllm:8000/v1", penalty="0.2")})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == [("RPL301", 7), ("RPL302", 7)]


@pytest.mark.parametrize(
    ("ports", "condition"),
    [
        ("['${PORT:-8000}:8000']", "`PORT` is unset"),
        ('["${VLLM_PORT-8000}:8000"]', "`VLLM_PORT` is unset"),
        ("['127.0.0.1:${PORT:-8000}:8000/tcp']", "`PORT` is unset"),
        ("[{target: 8000, published: '${HOST_PORT:-8000}'}]", "`HOST_PORT` is unset"),
        ("['${PORT}:9000', '${PORT2:-8000}:8000']", "`PORT2` is unset"),
        ("['${PORT:-8000}:8000', '8000:8000']", ""),  # published as written too: no default needed
    ],
)
def test_a_published_port_s_default_ties_a_client_on_the_host_when_unset(tmp_path: Path, ports: str, condition: str) -> None:
    """Compose takes a published port's default when the variable is unset (and `.env` does not set
    it): the client is tied, and the message says which default the tie rests on."""
    compose = COMPOSE.replace("  trainer:\n", f"    ports: {ports}\n  trainer:\n")
    tree(tmp_path, {"compose.yaml": compose, "rollout.py": ROLLOUT.format(url="http://localhost:8000/v1", penalty="0.2")})
    found = [message for path, _, _, message, _ in check(tmp_path) if path == "rollout.py"]
    assert len(found) == 2
    said = f"started at compose.yaml:2 (on port 8000 when {condition})" if condition else "started at compose.yaml:2"
    assert all(said in message and ("(on port" in message) == bool(condition) for message in found), found
    tree(tmp_path, {"rollout.py": ROLLOUT.format(url="http://vllm:8000/v1", penalty="0.2")})
    assert all("when" not in message.split(" reads ")[0] for path, _, _, message, _ in check(tmp_path) if path == "rollout.py")


def test_a_published_port_the_dot_env_file_sets_ties_nothing(tmp_path: Path) -> None:
    compose = COMPOSE.replace("  trainer:\n", "    ports: ['${PORT:-8000}:8000']\n  trainer:\n")
    client = ROLLOUT.format(url="http://localhost:8000/v1", penalty="0.2")
    tree(tmp_path, {"compose.yaml": compose, "rollout.py": client, ".env": "# ports\nMODEL=x\n"})
    assert at_client(check(tmp_path), "rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    tree(tmp_path, {".env": "# ports\nPORT=9000\n"})  # compose interpolates from it: the default is not used
    assert at_client(check(tmp_path), "rollout.py") == []


SERVICE = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: policy\nspec:\n  template:\n    metadata:\n      labels: {{app: policy}}\n"
    "    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.34.0\n"
    "          args: [Qwen/Qwen3-8B, --return-sampling-mask, --logprobs-mode, processed_logprobs]\n"
    "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: policy-svc\n  namespace: rl\n"
    "spec:\n  selector: {{app: {app}}}\n  ports:\n    - port: {port}\n      targetPort: 8000\n"
)


@pytest.mark.parametrize(
    ("app", "port", "url", "expected"),
    [
        ("policy", 8000, "http://policy-svc:8000/v1", [("RPL301", 7), ("RPL302", 7)]),
        ("policy", 8000, "http://policy-svc.rl.svc.cluster.local:8000/v1", [("RPL301", 7), ("RPL302", 7)]),
        ("policy", 80, "http://policy-svc:80/v1", []),  # the Service forwards 80 to 8000: the port names no server
        ("judge", 8000, "http://policy-svc:8000/v1", []),  # the Service selects other pods
    ],
)
def test_a_kubernetes_service_reaches_the_pods_it_selects(tmp_path: Path, app: str, port: int, url: str, expected: list) -> None:
    tree(tmp_path, {"deploy.yaml": SERVICE.format(app=app, port=port), "rollout.py": ROLLOUT.format(url=url, penalty="0.2")})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == expected


def test_the_scale_out_route_reads_the_masks_and_only_the_penalty_is_flagged(tmp_path: Path) -> None:
    url = "http://localhost:8001/inference/v1/generate"
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--enable-scale-out --port 8001"), "sample.py": GENERATE.format(url=url, penalty="1.0")})
    assert check(tmp_path) == []  # clean: the masks are read, the penalty is neutral
    tree(tmp_path, {"sample.py": GENERATE.format(url=url, penalty="1.2")})
    assert at_client(check(tmp_path), "sample.py") == [("RPL302", 5)]


@pytest.mark.parametrize(
    ("files", "why"),
    [
        ({"rollout.py": ROLLOUT.format(url="http://localhost:9000/v1", penalty="0.5")}, "another port"),
        ({"rollout.py": ROLLOUT.format(url="http://10.0.0.7:8001/v1", penalty="0.5")}, "a host nothing names"),
        ({"rollout.py": ROLLOUT.replace('"{url}"', 'os.environ["URL"]').format(penalty="0.5")}, "an address from outside"),
        (
            {"rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5"), "dev.sh": SERVE.format(flags="--port 8001")},
            "two servers on one port",
        ),
        (
            {
                "rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5"),
                "dev.sh": SERVE.format(flags="--port 8001").replace(" --return-sampling-mask", ""),
            },
            "a server without replay on the same port",
        ),
        (
            {"rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5"), "serve.sh": SERVE.format(flags="--port $PORT")},
            "a variable port",
        ),
    ],
)
def test_clients_tied_to_nothing(tmp_path: Path, files: dict[str, str], why: str) -> None:
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--port 8001"), **files})
    assert at_client(check(tmp_path), "rollout.py") == [], why


def test_in_a_monorepo_each_client_is_tied_to_the_server_of_its_own_project(tmp_path: Path) -> None:
    client = ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5")
    tree(
        tmp_path,
        {
            "projects/a/serve.sh": SERVE.format(flags="--port 8001"),
            "projects/a/rollout.py": client,
            "projects/b/serve.sh": SERVE.format(flags="--port 8001").replace(" --return-sampling-mask", ""),
            "projects/b/rollout.py": client,
        },
    )
    found = check(tmp_path, cache=False)
    assert at_client(found, "projects/a/rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    assert at_client(found, "projects/b/rollout.py") == []
    # a client at the root is as near to both servers: tied to neither
    tree(tmp_path, {"rollout.py": client})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == []
    # something else on the port in the client's own project: which one it reaches is not known
    tree(tmp_path, {"projects/a/dev.sh": SERVE.format(flags="--port 8001").replace(" --return-sampling-mask", "")})
    assert at_client(check(tmp_path, cache=False), "projects/a/rollout.py") == []


def test_a_file_that_names_the_masks_route_unread_keeps_rpl301_silent(tmp_path: Path) -> None:
    reader = 'import httpx\n\nROUTE = "/inference/v1/generate"\n\ndef masks(client, body):\n    return client.post(ROUTE, json=body)\n'
    tree(
        tmp_path, {"serve.sh": SERVE.format(flags="--port 8001"), "rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0")}
    )
    assert at_client(check(tmp_path), "rollout.py") == [("RPL301", 7)]
    tree(tmp_path, {"masks.py": reader})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == []
    tree(tmp_path, {"masks.py": 'def masks(session, body):\n    return session.request("POST", "/inference/v1/generate", json=body)\n'})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == []


def test_warm_and_pre_commit_runs_see_the_same_findings(tmp_path: Path) -> None:
    tree(
        tmp_path,
        {
            "scripts/serve.sh": SERVE.format(flags="--port 8001"),
            "rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5"),
            "engine.py": 'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        },
    )
    cold = check(tmp_path, cache=False)
    assert at_client(cold, "rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    assert check(tmp_path, cache=False, workers=2) == cold  # the servers' facts come back from worker processes
    assert check(tmp_path) == cold  # fills the cache
    assert check(tmp_path) == cold  # warm
    assert check(tmp_path, "rollout.py") == [f for f in cold if f[0] == "rollout.py"]  # the server's facts from the cache
    assert check(tmp_path, "scripts/serve.sh") == cold  # the client's facts from the cache
    # The server changed since: read again, it serves another port now.
    tree(tmp_path, {"scripts/serve.sh": SERVE.format(flags="--port 8002")})
    assert check(tmp_path, "rollout.py") == []


def test_clients_of_a_checked_file_that_starts_no_server_are_read_when_the_tree_starts_one(tmp_path: Path) -> None:
    """A file the prefilter passes (it builds an engine of its own) but that starts no server leaves its
    clients unread until a replay server of the tree needs them: cold, warm and pre-commit runs agree."""
    engine = '\nfrom vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    tree(tmp_path, {"rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5") + engine})
    assert check(tmp_path, cache=False) == []  # no server: nothing to tie the client to
    assert check(tmp_path) == []  # fills the cache, the client still unread
    tree(tmp_path, {"scripts/serve.sh": SERVE.format(flags="--port 8001")})
    cold = check(tmp_path, cache=False)
    assert at_client(cold, "rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    assert check(tmp_path, cache=False, workers=2) == cold
    assert check(tmp_path) == cold  # the client's file unchanged since the cache remembered it unread
    assert check(tmp_path) == cold  # warm
    assert check(tmp_path, "scripts/serve.sh") == cold  # pre-commit naming the server: the client read from its file


def test_a_suppression_at_the_client_silences_it_and_is_not_unused(tmp_path: Path) -> None:
    rollout = ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5").replace(
        "presence_penalty=0.5)", "presence_penalty=0.5)  # noqa: RPL302"
    )
    engine = '\nfrom vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--port 8001"), "rollout.py": rollout + engine})  # its own check reads it
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "json", "--target-vllm", "0.34.0", "--no-cache", "."])
    finally:
        os.chdir(cwd)
    codes = sorted((f["code"], f["location"]["row"]) for f in json.loads(out.getvalue()) if f["filename"] == "rollout.py")
    assert codes == [("RPL301", 7)]


TRL_SERVE = "#!/bin/bash\ntrl vllm-serve --model Qwen/Qwen3-8B --return-sampling-mask {port}\n"
GRPO_YAML = "use_vllm: true\nvllm_mode: server\nrepetition_penalty: {penalty}\nvllm_server_port: 8001\n"
PARSED = "from trl import GRPOConfig, GRPOTrainer, TrlParser\n\n(args,) = TrlParser((GRPOConfig,)).parse_args_and_config()\n"


@pytest.mark.parametrize(
    ("train", "extra", "expected"),
    [
        ("trl grpo --config grpo.yaml\n", {"grpo.yaml": GRPO_YAML.format(penalty="1.1")}, [("grpo.yaml", 3)]),
        ("trl grpo --config grpo.yaml --repetition_penalty 1.2\n", {"grpo.yaml": GRPO_YAML.format(penalty="1.0")}, [("train.sh", 2)]),
        (
            "accelerate launch --num_processes 4 train.py --use_vllm --vllm_mode server --vllm_server_port=8001 --repetition_penalty 1.1\n",
            {"train.py": PARSED},
            [("train.sh", 2)],
        ),
        (
            "accelerate launch trl/scripts/grpo.py --use_vllm true --vllm_mode server --vllm_server_base_url http://localhost:8001"
            " --generation_kwargs '{\"frequency_penalty\": 0.4}'\n",
            {},
            [("train.sh", 2)],
        ),
    ],
)
def test_trl_trainer_commands_send_their_penalty_to_the_replay_server(tmp_path: Path, train: str, extra: dict, expected: list) -> None:
    tree(
        tmp_path,
        {
            "requirements.txt": "trl==1.16.0\n",
            "serve.sh": TRL_SERVE.format(port="--port 8001"),
            "train.sh": "#!/bin/bash\n" + train,
            **extra,
        },
    )
    found = check(tmp_path, cache=False)
    assert [(path, line) for path, code, line, _, _ in found if code == "RPL302"] == expected
    assert all("is sent by TRL with every request to the replay server started at serve.sh:2" in f[3] for f in found if f[1] == "RPL302")


@pytest.mark.parametrize(
    ("train", "extra", "why"),
    [
        (
            "trl grpo --config grpo.yaml --vllm_mode colocate\n",
            {"grpo.yaml": GRPO_YAML.format(penalty="1.1")},
            "the command line wins: colocate",
        ),
        ("trl grpo --config grpo.yaml\n", {"grpo.yaml": GRPO_YAML.format(penalty="1.1").replace("8001", "8000")}, "another port"),
        ("trl grpo --config missing.yaml\n", {}, "a config not read"),
        (
            "accelerate launch train.py --use_vllm --vllm_mode server --vllm_server_port 8001 --repetition_penalty 1.1\n",
            {"train.py": "import trl\n"},
            "its own program, which reads no config",
        ),
        (
            "accelerate launch trl/scripts/grpo.py --use_vllm --vllm_mode server --vllm_server_port 8001 $EXTRA --repetition_penalty 1.1\n",
            {},
            "words we cannot read",
        ),
        (
            "trl grpo --config grpo.yaml --repetition_penalty 1.0\n",
            {"grpo.yaml": GRPO_YAML.format(penalty="1.3")},
            "a neutral penalty wins",
        ),
    ],
)
def test_trl_trainer_commands_that_send_nothing_shifting(tmp_path: Path, train: str, extra: dict, why: str) -> None:
    tree(
        tmp_path,
        {
            "requirements.txt": "trl==1.16.0\n",
            "serve.sh": TRL_SERVE.format(port="--port 8001"),
            "train.sh": "#!/bin/bash\n" + train,
            **extra,
        },
    )
    assert [f for f in check(tmp_path, cache=False) if f[1] == "RPL302"] == [], why


def test_a_trl_trainer_program_in_another_file_is_a_client_too(tmp_path: Path) -> None:
    train = 'from trl import GRPOConfig\n\nargs = GRPOConfig(output_dir="o", use_vllm=True, vllm_mode="server", repetition_penalty=1.1)\n'
    tree(tmp_path, {"requirements.txt": "trl==1.16.0\n", "serve.sh": TRL_SERVE.format(port=""), "train.py": train})
    # TRL's client reads /v1/completions (RPL301) and sends the penalty (RPL302).
    assert [(path, code, line) for path, code, line, _, _ in check(tmp_path, cache=False)] == [
        ("train.py", "RPL301", 3),
        ("train.py", "RPL302", 3),
    ]
    # A plain `vllm serve` is not the server TRL's trainer talks to.
    tree(tmp_path, {"serve.sh": SERVE.format(flags="--enable-scale-out")})
    assert check(tmp_path, cache=False) == []


def test_a_tree_without_a_replay_server_reads_no_client(tmp_path: Path) -> None:
    tree(
        tmp_path,
        {
            "serve.sh": SERVE.format(flags="--port 8001").replace(" --return-sampling-mask", ""),
            "rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0.5"),
        },
    )
    assert check(tmp_path) == []
    cache = sorted(os.listdir(tmp_path / ".replaylint_cache"))
    assert "serving" not in cache and not any(name.startswith("clients-") for name in cache)


def test_what_a_file_says_of_servers_and_clients_survives_the_cache() -> None:
    from replaylint.engine.cache.findings import Malformed
    from replaylint.engine.cache.served_json import decode, encode
    from replaylint.model import UNKNOWN, Launch, LaunchKind, Request, Setting, Span
    from replaylint.served import ReplayServer, Served, ServerClient

    span = Span("rollout.py", 3, 1, 3, 9, 40, 48)
    bias = Setting("logit_bias", {42: 5.0, "7": UNKNOWN}, span, "logit_bias=BIAS")
    request = Request(
        "http", span, {"logit_bias": bias, "top_k": Setting("top_k", [1, None], span, "top_k=K", implied=True)}, False, "/v1/completions"
    )
    server = ReplayServer(
        Launch(LaunchKind.CLI, span, {"port": Setting("port", "8001", span, "--port 8001")}, label="vllm serve", entrypoint="serve"),
        8001,
        ("vllm",),
        ("0.34.0",),
        "`PORT` is unset",
        True,
        "`HOST_PORT` is unset",
        "neither the environment nor `make REPLAY=...` sets REPLAY",
    )
    served = Served((server,), (ServerClient("localhost", 8001, request, "trl"),), True)
    assert decode(encode(served)) == served
    assert (
        decode(encode(Served((), (ServerClient("h", 1, replace_value(request, object())),)))).clients[0].request.settings["top_k"].value
        is UNKNOWN
    )
    for broken in (
        {"servers": [], "clients": [["h", "1", [], ""]], "reads_masks": False},
        {"servers": [{}], "clients": [], "reads_masks": False},
        [],
    ):
        with pytest.raises(Malformed):
            decode(broken)


def replace_value(request, value):
    from dataclasses import replace

    return replace(request, settings={"top_k": replace(request.settings["top_k"], value=value)})


def test_a_pod_s_server_and_a_client_on_its_localhost(tmp_path: Path) -> None:
    manifest = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: policy\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: vllm\n          image: vllm/vllm-openai:v0.34.0\n"
        '          args: ["Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out", "--port", "8001"]\n'
    )
    sidecar = GENERATE.format(url="http://127.0.0.1:8001/inference/v1/generate", penalty="1.0").replace(
        '"repetition_penalty": 1.0', '"logit_bias": {"42": 3}'
    )
    tree(tmp_path, {"deploy/policy.yaml": manifest, "sidecar.py": sidecar})
    (finding,) = check(tmp_path)
    assert finding[:3] == ("sidecar.py", "RPL302", 5) and "started at deploy/policy.yaml:9" in finding[3]


def test_a_warm_run_reads_a_trainer_command_again_when_its_config_changed(tmp_path: Path) -> None:
    files = {
        "requirements.txt": "trl==1.16.0\n",
        "serve.sh": TRL_SERVE.format(port="--port 8001"),
        "train.sh": "#!/bin/bash\ntrl grpo --config grpo.yaml\n",
    }
    tree(tmp_path, {**files, "grpo.yaml": GRPO_YAML.format(penalty="1.0")})
    never_returned = ("train.sh", "RPL301", 2)  # TRL's client reads /v1/completions
    assert [(path, code, line) for path, code, line, _, _ in check(tmp_path)] == [never_returned]
    tree(tmp_path, {"grpo.yaml": GRPO_YAML.format(penalty="1.2")})  # train.sh keeps its stat
    assert [(path, code, line) for path, code, line, _, _ in check(tmp_path)] == [("grpo.yaml", "RPL302", 3), never_returned]
    assert [(path, code, line) for path, code, line, _, _ in check(tmp_path, "serve.sh")] == [("grpo.yaml", "RPL302", 3), never_returned]


MAKE_SERVE = "{defaults}\nserve:\n\tvllm serve Qwen/Qwen3-8B {args}\n"
MAKE_DEFAULT = "neither the environment nor `make REPLAY=...` sets REPLAY, so Makefile:1's default"


@pytest.mark.parametrize(
    ("files", "said"),
    [
        pytest.param(
            {
                "Makefile": MAKE_SERVE.format(
                    defaults="REPLAY ?= --return-sampling-mask --logprobs-mode processed_logprobs\n", args="$(REPLAY) --port 8001"
                )
            },
            f"which has no sampling_mask field (when {MAKE_DEFAULT}",
            id="make ?= turns the mask on",
        ),
        pytest.param(
            {
                "Makefile": MAKE_SERVE.format(
                    defaults="REPLAY ?= --return-sampling-mask\n", args="$(REPLAY) --logprobs-mode=processed_logprobs --port=8001"
                )
            },
            f"(when {MAKE_DEFAULT} `REPLAY ?= --return-sampling-mask` holds)",
            id="make ?= with --port=",
        ),
        pytest.param(
            {
                "Makefile": MAKE_SERVE.format(
                    defaults="ARGS ?= --return-sampling-mask --port 8001\n", args="$(ARGS) --logprobs-mode processed_logprobs"
                )
            },
            "started at Makefile:4 (on port 8001 when neither the environment nor `make ARGS=...` sets ARGS",
            id="make ?= turns the mask on and sets the port: said once",
        ),
        pytest.param(
            {
                "serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen3-8B ${REPLAY:---return-sampling-mask} --logprobs-mode processed_logprobs --port 8001\n"
            },
            "which has no sampling_mask field (when `REPLAY` is unset)",
            id="a shell default turns the mask on",
        ),
    ],
)
def test_a_client_of_a_server_whose_mask_is_a_default_says_so(tmp_path: Path, files: dict[str, str], said: str) -> None:
    """The server's own finding says the mask rests on a default (Make's `?=`, `${VAR:-...}`):
    its client's finding in another file says it rests on the same, in cold, warm and pre-commit runs."""
    tree(tmp_path, {**files, "rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0")})
    for found in (check(tmp_path), check(tmp_path), check(tmp_path, "rollout.py")):
        [message] = [message for path, code, _, message, _ in found if path == "rollout.py" and code == "RPL301"]
        assert said in message and message.count("neither the environment") <= 1, message


@pytest.mark.parametrize(
    "makefile",
    [
        MAKE_SERVE.format(defaults="REPLAY := --return-sampling-mask\n", args="$(REPLAY) --logprobs-mode processed_logprobs --port 8001"),
        MAKE_SERVE.format(defaults="REPLAY = --return-sampling-mask\n", args="$(REPLAY) --logprobs-mode processed_logprobs --port 8001"),
        MAKE_SERVE.format(defaults="PORT ?= 9000\n", args="--return-sampling-mask --logprobs-mode processed_logprobs --port 8001"),
    ],
)
def test_a_client_of_a_server_whose_mask_is_written_out_names_no_default(tmp_path: Path, makefile: str) -> None:
    tree(tmp_path, {"Makefile": makefile, "rollout.py": ROLLOUT.format(url="http://localhost:8001/v1", penalty="0")})
    [message] = [message for path, code, _, message, _ in check(tmp_path) if path == "rollout.py" and code == "RPL301"]
    assert "when" not in message and "started at Makefile:4 reads" in message
