"""Round 22's RPL3xx request misses, as forms users write:

- a request field written as a conditional expression whose test is decided at run time
  (`"thinking_token_budget": 4096 if difficulty == "hard" else 1024`): one of its values, judged
  only where every one of them is wrong (a budget on both paths is reported at the key; `4096 if
  hard else -1`, or an arm whose value is not known here, stays silent). Also as a `SamplingParams`
  keyword, through a name bound to the expression, in an OpenAI client's `extra_body`, and for
  `temperature` (RPL309); a test the reader decides still picks its one arm;
- `urllib.parse.urljoin` of known texts as the path or URL a client posts to
  (`client.post(urljoin("/inference/v1/", "generate"))` under an httpx `base_url`); a text from the
  environment leaves it unknown;
- Nomad jobs in HCL (`*.nomad.hcl`, `*.nomad`): a `docker` task of the vLLM image runs `vllm serve` with
  its `config`'s `args`, an `exec`/`raw_exec` task its `command` and `args`, with the task's `env`;
  an item from a variable is one word not known; args from a variable, another
  image, an interpolated image and other HCL files are not read."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def reported(root: Path, *options: str) -> list[dict]:
    out = io.StringIO()
    arguments = ["check", *options, "--no-respect-gitignore", "--target-vllm", "0.34.0", "--output-format", "json", str(root)]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(arguments)
    return json.loads(out.getvalue())


def found(root: Path, cache: bool = False) -> list[tuple[str, str, int]]:
    return sorted(
        (item["code"], Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix(), item["location"]["row"])
        for item in reported(root, *([] if cache else ["--no-cache"]))
    )


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


# 1. the case's spelling: a helper's dict, posted by an httpx client to a Kubernetes Service

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: policy
spec:
  selector:
    matchLabels:
      app: policy
  template:
    metadata:
      labels:
        app: policy
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.34.0
          command: ["vllm", "serve"]
          args:
            - Qwen/Qwen3-8B
            - --port=8000
            - --reasoning-parser=qwen3
            - MASK
            - --logprobs-mode=processed_logprobs
            - --enable-scale-out
---
apiVersion: v1
kind: Service
metadata:
  name: policy
spec:
  selector:
    app: policy
  ports:
    - port: 8000
      targetPort: 8000
"""

HELPER = """def request_params(difficulty: str) -> dict:
    return {
        "temperature": 1.0,
        "top_k": 50,
        "thinking_token_budget": BUDGET,
    }
"""

WORKER = """import httpx

from rollout.params import request_params

client = httpx.Client(base_url="http://policy:8000", timeout=600)


def rollout(token_ids: list[int], difficulty: str) -> dict:
    body = {"token_ids": token_ids, "sampling_params": request_params(difficulty)}
    return client.post("/inference/v1/generate", json=body).json()
"""


def helper_tree(root: Path, budget: str, mask: str = "--return-sampling-mask") -> Path:
    return write(
        root,
        {
            "k8s/policy.yaml": DEPLOYMENT.replace("MASK", mask),
            "rollout/__init__.py": "",
            "rollout/params.py": HELPER.replace("BUDGET", budget),
            "rollout/worker.py": WORKER,
        },
    )


def test_a_budget_on_both_paths_of_a_conditional_is_reported_at_the_key(tmp_path: Path) -> None:
    helper_tree(tmp_path, '4096 if difficulty == "hard" else 1024')
    assert found(tmp_path) == [("RPL303", "rollout/params.py", 5)]


def test_a_budget_on_both_paths_is_still_reported_when_the_cache_recalls_the_client(tmp_path: Path) -> None:
    helper_tree(tmp_path, '4096 if difficulty == "hard" else 1024')
    assert found(tmp_path, cache=True) == [("RPL303", "rollout/params.py", 5)]
    assert found(tmp_path, cache=True) == [("RPL303", "rollout/params.py", 5)]


def test_nested_conditionals_with_a_budget_on_every_path_are_reported(tmp_path: Path) -> None:
    helper_tree(tmp_path, '4096 if difficulty == "hard" else (2048 if difficulty == "medium" else 512)')
    assert found(tmp_path) == [("RPL303", "rollout/params.py", 5)]


def test_an_unlimited_budget_on_one_path_is_not_reported(tmp_path: Path) -> None:
    helper_tree(tmp_path, '4096 if difficulty == "hard" else -1')
    assert found(tmp_path) == []


def test_an_arm_read_from_the_environment_keeps_the_value_open(tmp_path: Path) -> None:
    helper_tree(tmp_path, '4096 if difficulty == "hard" else int(__import__("os").environ["BUDGET"])')
    assert found(tmp_path) == []


def test_a_server_without_the_mask_is_not_judged(tmp_path: Path) -> None:
    helper_tree(tmp_path, '4096 if difficulty == "hard" else 1024', mask="--max-num-seqs=64")
    assert found(tmp_path) == []


# 2. other spellings: a SamplingParams keyword, a name bound to the expression, `extra_body`

ENGINE = """import sys

from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", reasoning_parser="qwen3")
hard = len(sys.argv) > 1
"""


def test_a_sampling_params_keyword_with_a_budget_on_both_paths_is_reported(tmp_path: Path) -> None:
    call = 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=2048 if hard else 256))\n'
    write(tmp_path, {"rollout.py": ENGINE + call})
    assert found(tmp_path) == [("RPL303", "rollout.py", 7)]


def test_a_name_bound_to_the_conditional_is_reported_where_the_keyword_uses_it(tmp_path: Path) -> None:
    call = 'budget = 2048 if hard else 256\nllm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=budget))\n'
    write(tmp_path, {"rollout.py": ENGINE + call})
    assert [code for code, _, _ in found(tmp_path)] == ["RPL303"]


def test_a_sampling_params_keyword_unlimited_on_one_path_is_not_reported(tmp_path: Path) -> None:
    call = 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=2048 if hard else -1))\n'
    write(tmp_path, {"rollout.py": ENGINE + call})
    assert found(tmp_path) == []


def test_a_test_the_reader_decides_still_picks_one_arm(tmp_path: Path) -> None:
    call = 'LIMIT = False\nllm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=2048 if LIMIT else -1))\n'
    write(tmp_path, {"rollout.py": ENGINE + call})
    assert found(tmp_path) == []


OPENAI_CLIENT = """import random
import subprocess

from openai import OpenAI

subprocess.Popen(["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",
                  "--enable-scale-out", "--reasoning-parser", "qwen3", "--port", "8001"])
client = OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")
explore = random.random() < 0.1
client.completions.create(model="m", prompt="hi", extra_body={"top_k": 20, "KEY": VALUE})
"""


def budget_findings(root: Path) -> list[tuple[str, str, int]]:
    """RPL303's findings alone (an OpenAI client's completions are RPL301's too: they return no mask)."""
    return [finding for finding in found(root) if finding[0] == "RPL303"]


def test_an_extra_body_budget_on_both_paths_is_reported(tmp_path: Path) -> None:
    write(tmp_path, {"client.py": OPENAI_CLIENT.replace("KEY", "thinking_token_budget").replace("VALUE", "1024 if explore else 512")})
    assert budget_findings(tmp_path) == [("RPL303", "client.py", 10)]


def test_an_extra_body_budget_unlimited_on_one_path_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, {"client.py": OPENAI_CLIENT.replace("KEY", "thinking_token_budget").replace("VALUE", "1024 if explore else -1")})
    assert budget_findings(tmp_path) == []


def temperature_findings(root: Path) -> list[tuple[int, str]]:
    """RPL309's findings (a preview rule, selected) as (line, message)."""
    findings = reported(root, "--no-cache", "--extend-select", "RPL309")
    return [(item["location"]["row"], item["message"]) for item in findings if item["code"] == "RPL309"]


def test_a_temperature_below_the_floor_on_both_paths_is_reported_with_both_values(tmp_path: Path) -> None:
    write(tmp_path, {"client.py": OPENAI_CLIENT.replace('"KEY": VALUE', '"temperature": 0.005 if explore else 0.001')})
    [(line, message)] = temperature_findings(tmp_path)
    assert line == 10 and "temperature 0.005 or 0.001 is less than 0.01" in message


def test_a_temperature_of_one_on_one_path_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, {"client.py": OPENAI_CLIENT.replace('"KEY": VALUE', '"temperature": 0.005 if explore else 1.0')})
    assert temperature_findings(tmp_path) == []


# 3. `urljoin` of known texts: the route a client posts to

SERVER = """import subprocess

subprocess.Popen(["vllm", "serve", "Qwen/Qwen3-8B", "--port", "8000", "--return-sampling-mask", "--logprobs-mode",
                  "processed_logprobs", "--enable-scale-out"])
"""

ASYNC_CLIENT = """from urllib.parse import urljoin

import httpx

BASE_URL = "http://127.0.0.1:8000"


async def generate(token_ids: list[int]) -> dict:
    async with httpx.AsyncClient(base_url=BASE_URL, timeout=600) as client:
        response = await client.post(
            PATH,
            json={"token_ids": token_ids, "sampling_params": {"top_k": 50, "logit_bias": {"151643": -100}}},
        )
        return response.json()
"""


def test_a_path_joined_by_urljoin_reaches_the_generate_route(tmp_path: Path) -> None:
    write(tmp_path, {"serve.py": SERVER, "client.py": ASYNC_CLIENT.replace("PATH", 'urljoin("/inference/v1/", "generate")')})
    assert found(tmp_path) == [("RPL302", "client.py", 12)]


def test_a_whole_url_joined_by_urljoin_reaches_the_server(tmp_path: Path) -> None:
    client = ASYNC_CLIENT.replace("PATH", 'urljoin("http://127.0.0.1:8000/inference/", "v1/generate")')
    write(tmp_path, {"serve.py": SERVER, "client.py": client.replace("base_url=BASE_URL, ", "")})
    assert found(tmp_path) == [("RPL302", "client.py", 12)]


def test_a_url_joined_to_another_port_is_not_a_request_to_the_replay_server(tmp_path: Path) -> None:
    client = ASYNC_CLIENT.replace("PATH", 'urljoin("http://127.0.0.1:9000/inference/", "v1/generate")')
    write(tmp_path, {"serve.py": SERVER, "client.py": client.replace("base_url=BASE_URL, ", "")})
    assert found(tmp_path) == []


def test_urljoin_of_a_path_from_the_environment_is_not_judged(tmp_path: Path) -> None:
    client = "import os\n" + ASYNC_CLIENT.replace("PATH", 'urljoin(os.environ["ROUTE"], "generate")')
    write(tmp_path, {"serve.py": SERVER, "client.py": client})
    assert found(tmp_path) == []


# 4. Nomad jobs in HCL: a docker task's `config { image, args }`, an exec task's `command` and `args`

DOCKER_JOB = """job "policy" {
  datacenters = ["dc1"]

  group "vllm" {
    network {
      port "http" {
        static = 8000
      }
    }

    task "server" {
      driver = "docker"

      config {
        image = IMAGE
        ports = ["http"]
        args  = ARGS
      }
      ENV
    }
  }
}
"""

RAW_LOGPROBS = """[
          "--model", "Qwen/Qwen3-8B",
          "--port", "${NOMAD_PORT_http}",
          "--return-sampling-mask",
          "--logprobs-mode", "raw_logprobs",
          "--enable-scale-out",
        ]"""


def nomad_job(image: str = '"vllm/vllm-openai:v0.34.0"', args: str = RAW_LOGPROBS, env: str = "") -> str:
    return DOCKER_JOB.replace("IMAGE", image).replace("ARGS", args).replace("ENV", env)


def test_a_docker_task_of_the_vllm_image_is_judged_at_its_words(tmp_path: Path) -> None:
    write(tmp_path, {"deploy/policy.nomad.hcl": nomad_job()})
    assert found(tmp_path) == [("RPL003", "deploy/policy.nomad.hcl", 21)]


def test_an_exec_task_runs_its_command_and_args(tmp_path: Path) -> None:
    job = """# raw exec of the CLI on the host
job "policy" {
  group "vllm" {
    task "server" {
      driver = "raw_exec"
      config {
        command = "vllm"
        args    = ["serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode=raw_logprobs", "--enable-scale-out"]
      }
    }
  }
}
"""
    write(tmp_path, {"policy.nomad": job})
    assert found(tmp_path) == [("RPL003", "policy.nomad", 8)]


def test_a_task_env_block_is_the_servers_environment(tmp_path: Path) -> None:
    env = 'env {\n        VLLM_USE_V2_MODEL_RUNNER = "0"\n      }'
    write(tmp_path, {"policy.nomad.hcl": nomad_job(args=RAW_LOGPROBS.replace("raw_logprobs", "processed_logprobs"), env=env)})
    assert found(tmp_path) == [("RPL206", "policy.nomad.hcl", 26)]


def test_args_from_a_variable_leave_the_task_unread(tmp_path: Path) -> None:
    write(tmp_path, {"policy.nomad.hcl": 'variable "args" {\n  type = list(string)\n}\n' + nomad_job(args="var.args")})
    assert found(tmp_path) == []


def test_a_list_item_from_a_variable_is_one_word_not_known(tmp_path: Path) -> None:
    args = '["--model", var.model, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]'
    write(tmp_path, {"policy.nomad.hcl": nomad_job(args=args)})
    assert found(tmp_path) == [("RPL301", "policy.nomad.hcl", 17)]  # the model's word hides no --enable-scale-out


def test_a_flag_from_a_variable_keeps_the_launch_open(tmp_path: Path) -> None:
    args = '["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", var.flag]'
    write(tmp_path, {"policy.nomad.hcl": nomad_job(args=args)})
    assert found(tmp_path) == []


def test_another_image_without_an_entrypoint_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, {"policy.nomad.hcl": nomad_job(image='"ghcr.io/acme/policy-server:1.2"')})
    assert found(tmp_path) == []


def test_an_interpolated_image_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, {"policy.nomad.hcl": nomad_job(image='"vllm/vllm-openai:${var.tag}"')})
    assert found(tmp_path) == []


def test_other_hcl_files_are_not_read(tmp_path: Path) -> None:
    terragrunt = 'terraform {\n  source = "../modules/vllm"\n}\n\ninputs = {\n  args = ["--return-sampling-mask", "--logprobs-mode", "raw_logprobs"]\n}\n'
    write(tmp_path, {"terragrunt.hcl": terragrunt})
    assert found(tmp_path) == []


def test_no_fix_is_written_into_a_nomad_job(tmp_path: Path) -> None:
    write(tmp_path, {"policy.nomad.hcl": nomad_job()})
    before = (tmp_path / "policy.nomad.hcl").read_text()
    reported(tmp_path, "--no-cache", "--fix", "--unsafe-fixes")
    assert (tmp_path / "policy.nomad.hcl").read_text() == before


def test_a_conditional_budget_a_mapping_read_at_run_time_may_overwrite_is_not_reported(tmp_path: Path) -> None:
    value = '1024 if explore else 512, **__import__("json").loads(__import__("os").environ["EXTRA_BODY"])'
    write(tmp_path, {"client.py": OPENAI_CLIENT.replace("KEY", "thinking_token_budget").replace("VALUE", value)})
    assert budget_findings(tmp_path) == []
