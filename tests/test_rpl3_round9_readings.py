"""Readings added for the ninth held-out RPL3xx round (tests/test_rpl3_heldout9.py): a value written
in a variable and substituted into a command line is reported (and fixed) where it is written: a
Make variable's value in a recipe, a switch that is one variable's whole value (a systemd
`Environment=`, a Dockerfile `ENV`, a shell assignment), each in spellings beyond the held-out
cases, with the twins that must stay where they were or silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_command_lines import findings
from tests.test_configuration import run
from tests.test_rpl3_round8_readings import fixed

MASK = "--return-sampling-mask --logprobs-mode processed_logprobs"
REPLAY = f"{MASK} --enable-scale-out"
TRACE = "--enable-trace-replay"


# -- a Make variable's value, substituted into a recipe line ----------------------------------------


@pytest.mark.parametrize(
    ("makefile", "expected"),
    [
        pytest.param(
            f"MODEL ?= Qwen/Qwen3-8B\nREPLAY_FLAGS := {MASK}\nserve:\n\tvllm serve $(MODEL) --port 8000 $(REPLAY_FLAGS)\n",
            [("RPL301", "Makefile", 2)],
            id="the case: := and no scale-out",
        ),
        pytest.param(
            f"FLAGS = {REPLAY} {TRACE}\nserve:\n\t@vllm serve m ${{FLAGS}}\n",
            [("RPL305", "Makefile", 1)],
            id="recursive =, ${} reference",
        ),
        pytest.param(
            f"TRACE ?= {TRACE}\nserve:\n\tvllm serve m {REPLAY} \\\n\t\t$(TRACE)\n",
            [("RPL305", "Makefile", 1)],
            id="a ?= default on a continued line",
        ),
        pytest.param(
            f"FLAGS := {REPLAY} {TRACE}\nserve:\n\tvllm serve m $(FLAGS)\nstage:\n\techo $(FLAGS)\n",
            [("RPL305", "Makefile", 1)],
            id="used by another recipe too",
        ),
        pytest.param(
            f"BASE := {REPLAY}\nFLAGS := $(BASE) {TRACE}\nserve:\n\tvllm serve m $(FLAGS)\n",
            [("RPL305", "Makefile", 4)],
            id="a value made of references stays at the recipe",
        ),
        pytest.param(f"FLAGS := {REPLAY}\nserve:\n\tvllm serve m $(FLAGS) $(EXTRA)\n", [], id="an unknown variable: open-ended"),
        pytest.param(
            f"FLAGS := {MASK}\nSCALE := --enable-scale-out\nserve:\n\tvllm serve m $(FLAGS) $(SCALE)\n", [], id="scale-out: clean"
        ),
        pytest.param(f"ifdef TRACE\nFLAGS := {REPLAY} {TRACE}\nendif\nserve:\n\tvllm serve m $(FLAGS)\n", [], id="in a conditional"),
    ],
)
def test_a_make_variables_value_is_the_place(tmp_path: Path, makefile: str, expected: list) -> None:
    assert findings(tmp_path, {"Makefile": makefile}) == expected


def test_a_make_default_placed_at_its_value_says_its_condition(tmp_path: Path) -> None:
    makefile = f"TRACE ?= {TRACE}\nserve:\n\tvllm serve m {REPLAY} $(TRACE)\n"
    (tmp_path / "Makefile").write_text(makefile, encoding="utf-8")
    _, out, _ = run(tmp_path, "check", "--no-cache", "--output-format", "concise", "Makefile")
    assert "Makefile:1:10: RPL305" in out and "`make TRACE=...` sets TRACE, so Makefile:1's default" in out


def test_a_make_fix_edits_the_variables_value(tmp_path: Path) -> None:
    makefile = f"REPLAY_FLAGS := {MASK}\nserve:\n\tvllm serve m --port 8000 $(REPLAY_FLAGS) --max-model-len 8192\n"
    assert fixed(tmp_path, "Makefile", makefile) == makefile.replace(
        "--return-sampling-mask", "--return-sampling-mask --enable-scale-out", 1
    )


def test_one_shell_recipes_place_values_too(tmp_path: Path) -> None:
    makefile = f".ONESHELL:\nFLAGS := {REPLAY} {TRACE}\nserve:\n\tcd /srv\n\tvllm serve m $(FLAGS)\n"
    assert findings(tmp_path, {"Makefile": makefile}) == [("RPL305", "Makefile", 2)]


# -- a switch that is one variable's whole value ---------------------------------------------------

UNIT = "[Service]\nEnvironment=MODEL=Qwen/Qwen3-8B\n{env}\nExecStart=/srv/venv/bin/vllm serve ${{MODEL}} {args}\n"


@pytest.mark.parametrize(
    ("env", "args", "expected"),
    [
        pytest.param(f"Environment=TRACE_ARGS={TRACE}", f"{REPLAY} $TRACE_ARGS", [("RPL305", "policy.service", 3)], id="the case"),
        pytest.param(f'Environment="TRACE={TRACE}"', f"{REPLAY} ${{TRACE}}", [("RPL305", "policy.service", 3)], id="quoted, braces"),
        pytest.param(
            "Environment=MASK=--return-sampling-mask",
            "$MASK --logprobs-mode processed_logprobs",
            [("RPL301", "policy.service", 3)],
            id="the mask switch itself",
        ),
        pytest.param("Environment=TRACE_ARGS=", f"{REPLAY} $TRACE_ARGS", [], id="empty: clean"),
        pytest.param("EnvironmentFile=/etc/vllm/policy.env", f"{REPLAY} $TRACE_ARGS", [], id="from a file outside the tree"),
    ],
)
def test_a_systemd_environment_switch_is_placed_at_its_value(tmp_path: Path, env: str, args: str, expected: list) -> None:
    assert findings(tmp_path, {"policy.service": UNIT.format(env=env, args=args)}) == expected


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            {"Dockerfile": f"FROM python:3.12\nRUN pip install vllm==0.34.0\nENV TRACE={TRACE}\nCMD vllm serve m {REPLAY} $TRACE\n"},
            [("RPL305", "Dockerfile", 3)],
            id="Dockerfile ENV",
        ),
        pytest.param(
            {"serve.sh": f'#!/bin/bash\nTRACE="{TRACE}"\nvllm serve m {REPLAY} "$TRACE"\n'},
            [("RPL305", "serve.sh", 2)],
            id="a shell assignment",
        ),
        pytest.param(
            {"serve.sh": f"#!/bin/bash\nTRACE={TRACE}\nvllm serve m {REPLAY} --x=$TRACE\n"},
            [],
            id="not the word alone: another option",
        ),
        pytest.param(
            {"serve.sh": f'#!/bin/bash\nTRACE="${{TRACE:-{TRACE}}}"\nvllm serve m {REPLAY} $TRACE\n'},
            [("RPL305", "serve.sh", 3)],
            id="a default for an unset variable stays at the word",
        ),
    ],
)
def test_a_switch_written_in_a_variable_elsewhere(tmp_path: Path, files: dict[str, str], expected: list) -> None:
    assert findings(tmp_path, files) == expected


# -- a Ray Serve deployment's `__call__`, read with what `.bind(...)` gave `__init__` -----------------

DEPLOYMENT = """from ray import serve
from vllm import LLM, SamplingParams
{head}

@serve.deployment(ray_actor_options={{"num_gpus": 1}})
class Policy:
    def __init__(self, cfg: dict):
        self.llm = LLM(**cfg["engine"])
        self.params = SamplingParams(**cfg["sampling"])

    async def __call__(self, request) -> dict:
        prompts = (await request.json())["prompts"]
        return {{"outputs": self.llm.generate(prompts, self.params)}}


app = Policy.bind({config})
"""
ENGINE = '{"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}'
POLICY_YAML = (
    "engine:\n  model: m\n  return_sampling_mask: true\n  logprobs_mode: processed_logprobs\n"
    "sampling:\n  temperature: 1.0\n  top_k: 50\n  {field}\n"
)
FROM_YAML = 'import yaml\nfrom pathlib import Path\n\nCONFIG = yaml.safe_load((Path(__file__).parent / "policy.yaml").read_text())\n'


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            {
                "serve.py": DEPLOYMENT.format(head=FROM_YAML, config="CONFIG"),
                "policy.yaml": POLICY_YAML.format(field="logit_bias: {7: -100.0}"),
            },
            [("RPL302", "policy.yaml", 8)],
            id="the case: YAML next to the module",
        ),
        pytest.param(
            {
                "serve.py": DEPLOYMENT.format(
                    head="", config=f'{{"engine": {ENGINE},\n    "sampling": {{"top_k": 20, "presence_penalty": 0.4}}}}'
                )
            },
            [("RPL302", "serve.py", 17)],
            id="a dict literal bound",
        ),
        pytest.param(
            {"serve.py": DEPLOYMENT.format(head=FROM_YAML, config="CONFIG"), "policy.yaml": POLICY_YAML.format(field="logit_bias: {}")},
            [],
            id="an empty bias: clean",
        ),
        pytest.param(
            {"serve.py": DEPLOYMENT.format(head="import json, os\n", config='json.loads(os.environ["POLICY_CONFIG"])')},
            [],
            id="a config from the environment: open",
        ),
    ],
)
def test_a_deployments_call_reads_what_bind_gave(tmp_path: Path, files: dict[str, str], expected: list) -> None:
    assert findings(tmp_path, files) == expected


# -- top_k read from the model folder's config.json -------------------------------------------------

LLAMA = '{"architectures": ["LlamaForCausalLM"], "hidden_size": 2048,\n "vocab_size": 128256}\n'
SERVE_CKPT = f'#!/bin/bash\ncd "$(dirname "$0")"\nexec vllm serve ./ckpt --port 8000 {REPLAY}\n'
SAMPLER = """import json
from pathlib import Path

import requests

CKPT = Path(__file__).parent / "ckpt"
VOCAB = {read}


def sample(ids):
    params = {{"temperature": 1.0, "top_k": {top_k}, "max_tokens": 64}}
    return requests.post("http://localhost:8000/inference/v1/generate", json={{"token_ids": ids, "sampling_params": params}}).json()
"""


@pytest.mark.parametrize(
    ("read", "top_k", "expected"),
    [
        pytest.param('json.loads((CKPT / "config.json").read_text())["vocab_size"]', "VOCAB", [("RPL304", "sample.py", 11)], id="the case"),
        pytest.param('json.load(open(CKPT / "config.json"))["vocab_size"]', "VOCAB", [("RPL304", "sample.py", 11)], id="json.load(open())"),
        pytest.param(
            'json.loads((CKPT / "config.json").read_text())', 'VOCAB["vocab_size"]', [("RPL304", "sample.py", 11)], id="key at the use"
        ),
        pytest.param('json.loads((CKPT / "config.json").read_text())["vocab_size"]', "VOCAB - 1", [], id="below the vocabulary: clean"),
        pytest.param('json.loads(Path("/models/llama/config.json").read_text())["vocab_size"]', "VOCAB", [], id="a file outside the tree"),
    ],
)
def test_top_k_read_from_the_models_config_is_placed_at_the_request(tmp_path: Path, read: str, top_k: str, expected: list) -> None:
    files = {"sample.py": SAMPLER.format(read=read, top_k=top_k), "serve.sh": SERVE_CKPT, "ckpt/config.json": LLAMA}
    assert findings(tmp_path, files) == expected


def test_a_config_read_as_text_is_read_for_an_engine_too(tmp_path: Path) -> None:
    module = (
        "import json\nfrom pathlib import Path\nfrom vllm import LLM\n\n"
        'ENGINE = json.loads((Path(__file__).parent / "engine.json").read_text())\nllm = LLM(**ENGINE)\n'
    )
    engine = '{"model": "m", "return_sampling_mask": true,\n "logprobs_mode": "raw_logprobs"}\n'
    assert findings(tmp_path, {"infer.py": module, "engine.json": engine}) == [("RPL003", "engine.json", 2)]


# -- a compose command interpolated from the project's `.env` ---------------------------------------

COMPOSE = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.34.0\n    command: {command}\n"


@pytest.mark.parametrize(
    ("command", "dotenv", "expected"),
    [
        pytest.param(f"${{MODEL}} {REPLAY} ${{TRACE_FLAG}}", f"MODEL=m\nTRACE_FLAG={TRACE}\n", [("RPL305", ".env", 2)], id="the case"),
        pytest.param(
            "[m, --return-sampling-mask, --enable-scale-out, --logprobs-mode, $MODE, $TRACE]",
            f"MODE=processed_logprobs\nTRACE='{TRACE}'\n",
            [("RPL305", ".env", 2)],
            id="a list, bare references, a quoted value",
        ),
        pytest.param(
            "m --return-sampling-mask --enable-scale-out --logprobs-mode ${MODE}",
            "MODE=raw_logprobs\n",
            [("RPL003", ".env", 1)],
            id="an option's value",
        ),
        pytest.param(
            f"m {MASK} ${{EXTRA}}",
            "EXTRA=--max-model-len 8192\n",
            [("RPL301", "docker-compose.yml", 4)],
            id="an absent scale-out, resting on the .env value",
        ),
        pytest.param(f"m {REPLAY} ${{TRACE_FLAG}}", None, [], id="no .env: the shell's, open"),
        pytest.param(f"m {REPLAY} ${{TRACE_FLAG:-}}", f"TRACE_FLAG={TRACE}\n", [], id="a modifier: not read"),
        pytest.param(f"m {REPLAY} ${{TRACE_FLAG}}", "TRACE_FLAG=\n", [], id="empty: clean"),
        pytest.param(f"m {REPLAY} $${{TRACE_FLAG}}", f"TRACE_FLAG={TRACE}\n", [], id="$$: no interpolation"),
    ],
)
def test_a_compose_dotenv_value_is_the_place(tmp_path: Path, command: str, dotenv: str | None, expected: list) -> None:
    files = {"docker-compose.yml": COMPOSE.format(command=command), **({".env": dotenv} if dotenv is not None else {})}
    assert findings(tmp_path, files) == expected


def test_a_compose_dotenv_finding_says_the_shell_may_set_it(tmp_path: Path) -> None:
    (tmp_path / "docker-compose.yml").write_text(COMPOSE.format(command=f"m {REPLAY} ${{TRACE_FLAG}}"), encoding="utf-8")
    (tmp_path / ".env").write_text(f"TRACE_FLAG={TRACE}\n", encoding="utf-8")
    _, out, _ = run(tmp_path, "check", "--no-cache", "--output-format", "concise", ".")
    assert f"when the shell running compose does not set TRACE_FLAG, so .env:1's `TRACE_FLAG={TRACE}` holds" in out


# -- a Kubernetes variable from a ConfigMap key, expanded after `--option=` ---------------------------

DEPLOYMENT_K8S = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: policy
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.34.0
          env:
            - name: METHOD
              valueFrom:
                configMapKeyRef:
                  name: {map_name}
                  key: rejection_sample_method
          args:
            - m
            - --return-sampling-mask
            - --logprobs-mode=processed_logprobs
            - --enable-scale-out
            - --speculative-config.method=ngram
            - --speculative-config.num_speculative_tokens=3
            - --speculative-config.prompt_lookup_max=3
            - {word}
"""
CONFIG_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: spec\ndata:\n  rejection_sample_method: {method}\n"


@pytest.mark.parametrize(
    ("word", "files", "expected"),
    [
        pytest.param(
            "--speculative-config.rejection_sample_method=$(METHOD)",
            {"deploy/configmap.yaml": CONFIG_MAP.format(method="fly")},
            [("RPL306", "configmap.yaml", 6)],
            id="dotted, the ConfigMap in another file of the folder",
        ),
        pytest.param(
            "--speculative-config.rejection_sample_method=$(METHOD)",
            {"deploy/configmap.yaml": CONFIG_MAP.format(method="standard")},
            [],
            id="standard: clean",
        ),
        pytest.param(
            "--speculative-config.rejection_sample_method=$(METHOD)",
            {"other/configmap.yaml": CONFIG_MAP.format(method="fly")},
            [],
            id="a ConfigMap of another folder: the cluster's, open",
        ),
        pytest.param(
            "--speculative-config.rejection_sample_method=$(METHOD)",
            {"deploy/a.yaml": CONFIG_MAP.format(method="fly"), "deploy/b.yaml": CONFIG_MAP.format(method="standard")},
            [],
            id="two ConfigMaps of the name: open",
        ),
    ],
)
def test_a_config_map_key_is_the_place(tmp_path: Path, word: str, files: dict[str, str], expected: list) -> None:
    manifest = DEPLOYMENT_K8S.format(map_name="spec", word=word)
    assert findings(tmp_path, {"deploy/deployment.yaml": manifest, **files}) == expected


def test_a_config_map_of_the_same_file(tmp_path: Path) -> None:
    manifest = DEPLOYMENT_K8S.format(map_name="spec", word="--speculative-config.rejection_sample_method=$(METHOD)")
    text = CONFIG_MAP.format(method="fly") + "---\n" + manifest
    assert findings(tmp_path, {"deploy/all.yaml": text}) == [("RPL306", "all.yaml", 6)]


def test_an_option_value_from_an_env_value(tmp_path: Path) -> None:
    manifest = DEPLOYMENT_K8S.format(map_name="spec", word="--speculative-config.rejection_sample_method=$(METHOD)").replace(
        "              valueFrom:\n                configMapKeyRef:\n                  name: spec\n                  key: rejection_sample_method\n",
        "              value: synthetic\n",
    )
    manifest = manifest.replace(
        "- --speculative-config.prompt_lookup_max=3\n",
        "- --speculative-config.prompt_lookup_max=3\n            - --speculative-config.synthetic_acceptance_length=2.5\n",
    )
    assert findings(tmp_path, {"deploy/deployment.yaml": manifest}) == [("RPL306", "deployment.yaml", 13)]


@pytest.mark.parametrize(
    "makefile",
    [
        pytest.param(f'FLAGS := {TRACE}\nserve:\n\tvllm serve m {REPLAY} "$(FLAGS)"\n', id="quoted"),
        pytest.param(
            "MODE := raw_logprobs\nserve:\n\tvllm serve m --return-sampling-mask --enable-scale-out --logprobs-mode=$(MODE)\n", id="glued"
        ),
    ],
)
def test_a_make_reference_inside_a_word_stays_at_the_recipe(tmp_path: Path, makefile: str) -> None:
    assert [line for _, _, line in findings(tmp_path, {"Makefile": makefile})] == [3]


# -- a client behind a compose project's nginx gateway, its body from a parameter's default ---------

GATEWAY_COMPOSE = f"""services:
  policy:
    image: vllm/vllm-openai:v0.34.0
    command: m {REPLAY}
    expose:
      - "8000"
  gateway:
    image: {{image}}
    volumes:
      - ./nginx/default.conf:/etc/nginx/conf.d/default.conf:ro
    ports:
      - "8080:80"
"""
NGINX = "server {{\n    listen 80;\n    location {location} {{\n        proxy_pass {upstream};\n    }}\n}}\n"
SAMPLING = (
    "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Sampling:\n"
    "    temperature: float = 1.0\n    top_k: int = 50\n    presence_penalty: float = {penalty}\n"
)
WORKER = """import dataclasses

import requests

from sampling import Sampling


def generate(ids: list[int], sampling: Sampling = Sampling()) -> dict:
    body = {{"token_ids": ids, "sampling_params": dataclasses.asdict(sampling)}}
    return requests.post("{url}", json=body).json()
"""


@pytest.mark.parametrize(
    ("url", "location", "upstream", "expected"),
    [
        pytest.param(
            "http://localhost:8080/policy/inference/v1/generate",
            "/policy/",
            "http://policy:8000/",
            [("RPL302", "sampling.py", 8)],
            id="the case",
        ),
        pytest.param(
            "http://gateway:80/inference/v1/generate", "/", "http://policy:8000", [("RPL302", "sampling.py", 8)], id="by the service's name"
        ),
        pytest.param(
            "http://127.0.0.1:8080/v1/generate/inference/v1/generate",
            "/v1/generate/",
            "http://policy:8000/",
            [("RPL302", "sampling.py", 8)],
            id="another prefix",
        ),
        pytest.param("http://localhost:8080/other/inference/v1/generate", "/policy/", "http://policy:8000/", [], id="another location"),
        pytest.param("http://localhost:8080/policy/inference/v1/generate", "/policy/", "http://$backend/", [], id="a variable upstream"),
        pytest.param("http://localhost:8080/policy/inference/v1/generate", "~ ^/policy/", "http://policy:8000/", [], id="a regex location"),
        pytest.param("http://localhost:9090/policy/inference/v1/generate", "/policy/", "http://policy:8000/", [], id="another port"),
    ],
)
def test_a_client_behind_an_nginx_gateway(tmp_path: Path, url: str, location: str, upstream: str, expected: list) -> None:
    files = {
        "docker-compose.yml": GATEWAY_COMPOSE.format(image="nginx:1.27"),
        "nginx/default.conf": NGINX.format(location=location, upstream=upstream),
        "sampling.py": SAMPLING.format(penalty=0.3),
        "worker.py": WORKER.format(url=url),
    }
    assert findings(tmp_path, files) == expected


def test_a_gateway_of_another_image_routes_nothing(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": GATEWAY_COMPOSE.format(image="traefik:v3"),
        "nginx/default.conf": NGINX.format(location="/policy/", upstream="http://policy:8000/"),
        "sampling.py": SAMPLING.format(penalty=0.3),
        "worker.py": WORKER.format(url="http://localhost:8080/policy/inference/v1/generate"),
    }
    assert findings(tmp_path, files) == []


@pytest.mark.parametrize(
    ("worker", "expected"),
    [
        pytest.param(WORKER, [("RPL302", "sampling.py", 8)], id="a record's default, said"),
        pytest.param(
            WORKER.replace("def generate(", "def _unused():\n    pass\n\n\ndef generate("),
            [("RPL302", "sampling.py", 8)],
            id="beside another function",
        ),
        pytest.param(WORKER + "\n\ngenerate([1], Sampling(presence_penalty=0.0))\n", [], id="a caller passes its own"),
        pytest.param(WORKER.replace("sampling: Sampling = Sampling()", "sampling: Sampling"), [], id="no default"),
    ],
)
def test_a_body_from_a_parameters_default_of_an_uncalled_function(tmp_path: Path, worker: str, expected: list) -> None:
    files = {
        "serve.sh": f"vllm serve m --port 8000 {REPLAY}\n",
        "sampling.py": SAMPLING.format(penalty=0.3),
        "worker.py": worker.format(url="http://localhost:8000/inference/v1/generate"),
    }
    assert findings(tmp_path, files) == expected


def test_a_body_from_a_parameters_default_says_so(tmp_path: Path) -> None:
    files = {
        "serve.sh": f"vllm serve m --port 8000 {REPLAY}\n",
        "sampling.py": SAMPLING.format(penalty=0.3),
        "worker.py": WORKER.format(url="http://localhost:8000/inference/v1/generate"),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    _, out, _ = run(tmp_path, "check", "--no-cache", "--output-format", "concise", ".")
    assert "when the caller of `generate` passes no `sampling`, leaving worker.py:8's `Sampling()`" in out


def test_a_function_another_module_calls_is_read_with_its_calls(tmp_path: Path) -> None:
    files = {
        "serve.sh": f"vllm serve m --port 8000 {REPLAY}\n",
        "sampling.py": SAMPLING.format(penalty=0.3),
        "worker.py": WORKER.format(url="http://localhost:8000/inference/v1/generate"),
        "loop.py": "from sampling import Sampling\nfrom worker import generate\n\ngenerate([1], Sampling(presence_penalty=0.0))\n",
    }
    assert findings(tmp_path, files) == []
