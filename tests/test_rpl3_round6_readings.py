"""What the sixth RPL3xx held-out round asked replaylint to read, each on its own: a request
sent once per turn of a loop over the params, an environment variable's default that a Python
name of the same spelling holds, a `tmux` session's command, LiteLLM's `Router`, Modal's
`Popen(" ".join(cmd), shell=True)` and SkyPilot's task YAML."""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest

from replaylint.cli.main import main

ENGINE = 'from vllm import LLM, SamplingParams\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'


def family(results, name: str) -> list[str]:
    return sorted(f.code for f in results[name].findings if f.code.startswith("RPL3"))


# -- a request sent once per turn of a loop ---------------------------------------------------------


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        ("for params in (bounded, unbounded):\n    llm.generate(['x'], params)\n", ["RPL304"]),
        ("for name, params in (('a', bounded), ('b', unbounded)):\n    llm.generate(['x'], params)\n", ["RPL304"]),
        (
            "for name, params in [('a', bounded), ('b', unbounded)]:\n    for out in llm.generate(['x'], params):\n        print(out)\n",
            ["RPL304"],
        ),
        ("for params in (bounded,):\n    llm.generate(['x'], params)\n", []),
        ("for params in (bounded, unbounded):\n    if params is bounded:\n        llm.generate(['x'], params)\n", []),
    ],
)
def test_a_request_is_read_once_per_turn_of_a_loop_over_the_params(check, loop: str, expected: list[str]) -> None:
    params = "bounded = SamplingParams(top_k=64)\nunbounded = SamplingParams(top_k=1 << 18)\n"
    assert family(check({"run.py": ENGINE + params + loop}), "run.py") == expected


# -- an environment variable's default, under a Python name of the same spelling -------------------

SERVER = (
    "import os, subprocess, requests\n"
    'subprocess.Popen(["vllm", "serve", "m", "--enable-scale-out", "--return-sampling-mask",'
    ' "--logprobs-mode", "processed_logprobs", "--reasoning-parser", "qwen3"])\n'
)
SEND = 'requests.post("http://localhost:8000/inference/v1/generate", json={{"token_ids": [1], "sampling_params": {{{body}}}}})\n'


@pytest.mark.parametrize(
    "read",
    [
        'THINK_BUDGET = int(os.environ.get("THINK_BUDGET", "4096"))\n',
        "THINK_BUDGET = int(os.getenv('THINK_BUDGET', default='4096'))\n",
        'THINK_BUDGET = os.environ.get("THINK_BUDGET", 4096)\nMAX_TOKENS = THINK_BUDGET + 1024\n',
    ],
)
def test_a_thinking_budget_read_from_the_environment_with_a_default(check, read: str) -> None:
    source = SERVER + read + SEND.format(body='"top_k": 20, "thinking_token_budget": THINK_BUDGET')
    (finding,) = check({"loop.py": source}, release="0.34.0")["loop.py"].findings
    assert finding.code == "RPL303"
    assert "when `THINK_BUDGET` is unset" in finding.message


@pytest.mark.parametrize(
    "written",
    [
        'if os.name == "nt":\n    os.environ["THINK_BUDGET"] = "0"\n',  # round 15: a write at the top level is the value read
        "os.environ.update(THINK_BUDGET='0')\n",
        "from dotenv import load_dotenv\nload_dotenv()\n",
    ],
)
def test_an_environment_variable_the_program_may_write_has_no_default(check, written: str) -> None:
    read = 'THINK_BUDGET = int(os.environ.get("THINK_BUDGET", "4096"))\n'
    source = SERVER + written + read + SEND.format(body='"top_k": 20, "thinking_token_budget": THINK_BUDGET')
    assert family(check({"loop.py": source}, release="0.34.0"), "loop.py") == []


def test_a_penalty_from_the_environment_says_whose_default_it_is(check) -> None:
    read = 'PENALTY = float(os.getenv("PENALTY", "1.1"))\n'
    (finding,) = check({"loop.py": SERVER + read + SEND.format(body='"top_k": 20, "repetition_penalty": PENALTY')}, release="0.34.0")[
        "loop.py"
    ].findings
    assert finding.code == "RPL302" and "when `PENALTY` is unset" in finding.message
    neutral = SERVER + read.replace("1.1", "1.0") + SEND.format(body='"top_k": 20, "repetition_penalty": PENALTY')
    assert family(check({"loop.py": neutral}, release="0.34.0"), "loop.py") == []


# -- a tmux session's command ---------------------------------------------------------------------

REPLAY = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f'tmux new-session -d -s policy "{REPLAY} --port 8000"\n', ["RPL301"]),
        (f"tmux new -d -s policy '{REPLAY}'\n", ["RPL301"]),
        (f'tmux -L rl new-session -d -x 200 -y 50 -s policy "{REPLAY}" \\; attach\n', ["RPL301"]),
        (f"tmux new-session -d -s policy {REPLAY}\n", ["RPL301"]),  # several words: run directly
        (f'tmux split-window -h -t policy "{REPLAY}"\n', ["RPL301"]),
        (f'tmux new-session -d -s policy "{REPLAY} --enable-scale-out"\n', []),
        (f'tmux new-session -d -s policy -e VLLM_X=1 "{REPLAY}"\n', []),  # an option not read here
        (f'tmux send-keys -t policy "{REPLAY}" Enter\n', []),  # typed into a shell, not run by tmux
        ("tmux new-session -d -s policy\n", []),
    ],
)
def test_the_command_of_a_tmux_session(check, line: str, expected: list[str]) -> None:
    assert family(check({"serve.sh": line}, release="0.34.0"), "serve.sh") == expected


# -- a shell string joined from a word list (Modal's `Popen(" ".join(cmd), shell=True)`) -----------

ARGV = 'import os, subprocess\nSCALE_OUT = {scale_out}\ncmd = ["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n'


@pytest.mark.parametrize(
    ("spawn", "scale_out", "expected"),
    [
        ('subprocess.Popen(" ".join(cmd), shell=True)\n', "False", ["RPL301"]),
        ('def main():\n    command = " ".join(cmd)\n    os.system(command)\n', "False", ["RPL301"]),
        ('cmd += ["--port", str(8000)]\nsubprocess.run(" ".join(cmd), shell=True, check=True)\n', "False", ["RPL301"]),
        (
            'cmd += ["--enable-scale-out" if SCALE_OUT else "--enforce-eager"]\nsubprocess.Popen(" ".join(cmd), shell=True)\n',
            "False",
            ["RPL301"],
        ),
        ('cmd += ["--enable-scale-out" if SCALE_OUT else "--enforce-eager"]\nsubprocess.Popen(" ".join(cmd), shell=True)\n', "True", []),
        ('cmd += ["--enable-scale-out"]\nsubprocess.Popen(" ".join(cmd), shell=True)\n', "False", []),
        # a word the shell would split or expand, or one not known here: the list is not the launch
        ('cmd += ["--served-model-name", "my policy"]\nsubprocess.Popen(" ".join(cmd), shell=True)\n', "False", []),
        ('cmd += [os.environ["EXTRA"]]\nsubprocess.Popen(" ".join(cmd), shell=True)\n', "False", []),
        ('cmd += ["--enable-scale-out" if os.environ.get("X") else "-O0"]\nsubprocess.Popen(" ".join(cmd), shell=True)\n', "False", []),
        ('subprocess.Popen(",".join(cmd), shell=True)\n', "False", []),
    ],
)
def test_a_shell_string_joined_from_a_word_list(check, spawn: str, scale_out: str, expected: list[str]) -> None:
    source = ARGV.format(scale_out=scale_out) + spawn
    assert family(check({"serve.py": source}, release="0.34.0"), "serve.py") == expected


def test_modals_web_server_popen_is_fixed_in_its_list(check, tmp_path) -> None:
    source = (
        "import modal\napp = modal.App('rollout')\nFAST_BOOT = True\n\n"
        "@app.function(gpu='H100')\n@modal.web_server(port=8000)\ndef serve():\n    import subprocess\n\n"
        '    cmd = ["vllm", "serve", "m", "--port", str(8000)]\n'
        '    cmd += ["--enforce-eager" if FAST_BOOT else "--no-enforce-eager"]\n'
        '    cmd += ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n'
        '    subprocess.Popen(" ".join(cmd), shell=True)\n'
    )
    (finding,) = check({"server.py": source}, release="0.34.0")["server.py"].findings
    assert finding.code == "RPL301" and finding.span.start_line == 12
    assert [edit.content for edit in finding.edits] == [', "--enable-scale-out"']


# -- LiteLLM's Router ------------------------------------------------------------------------------

ROUTER = (
    "import subprocess\nfrom litellm import Router\n"
    'subprocess.Popen(["vllm", "serve", "m", "--enable-scale-out", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])\n'
    'DEPLOYMENTS = [{{"model_name": "policy", "litellm_params": {{"model": "{provider}/m", "api_base": "http://localhost:8000/v1"{more}}}}}{other}]\n'
    "router = Router(model_list=DEPLOYMENTS, num_retries=3)\n"
    "async def rollout(messages):\n"
    '    return await router.{call}(model="{group}", messages=messages, extra_body={{"top_k": 40}})\n'
)
_JUDGE = ', {"model_name": "judge", "litellm_params": {"model": "hosted_vllm/j", "api_base": "http://judge:9000/v1"}}'
_SECOND = ', {"model_name": "policy", "litellm_params": {"model": "hosted_vllm/m", "api_base": "http://localhost:8001/v1"}}'


@pytest.mark.parametrize(
    ("provider", "more", "other", "call", "group", "expected"),
    [
        ("hosted_vllm", "", "", "acompletion", "policy", ["RPL301"]),
        ("hosted_vllm", ', "api_key": "EMPTY", "rpm": 600', _JUDGE, "completion", "policy", ["RPL301"]),
        ("openai", "", "", "atext_completion", "policy", ["RPL301"]),
        ("hosted_vllm", "", _JUDGE, "acompletion", "judge", []),  # another server's group
        ("anthropic", "", "", "acompletion", "policy", []),  # not an OpenAI-compatible provider
        ("hosted_vllm", "", _SECOND, "acompletion", "policy", []),  # balanced over two addresses
        ("hosted_vllm", ', "temperature": 0.2', "", "acompletion", "policy", []),  # a default it also sends
        ("hosted_vllm", "", "", "acompletion", "missing", []),
        ("hosted_vllm", "", "", "aembedding", "policy", []),
    ],
)
def test_a_litellm_router_group_is_a_client_of_its_deployment(check, provider, more, other, call, group, expected) -> None:
    source = ROUTER.format(provider=provider, more=more, other=other, call=call, group=group)
    assert family(check({"rollout.py": source}, release="0.34.0"), "rollout.py") == expected


def test_a_group_whose_name_is_not_known_is_read_as_no_client(check) -> None:
    source = ROUTER.format(provider="hosted_vllm", more="", other="", call="acompletion", group="policy")
    source = source.replace('"model_name": "policy"', '"model_name": os.environ["GROUP"]').replace(
        "import subprocess", "import os, subprocess"
    )
    assert family(check({"rollout.py": source}, release="0.34.0"), "rollout.py") == []


def test_litellm_completion_of_a_hosted_vllm_model_is_still_read(check) -> None:
    source = (
        "import subprocess, litellm\n"
        'subprocess.Popen(["vllm", "serve", "m", "--enable-scale-out", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])\n'
        'litellm.completion(model="hosted_vllm/m", api_base="http://127.0.0.1:8000/v1", messages=[])\n'
    )
    assert family(check({"rollout.py": source}, release="0.34.0"), "rollout.py") == ["RPL301"]


# -- a SkyPilot task's scripts ---------------------------------------------------------------------

TASK = (
    "resources:\n  accelerators: A100:1\n  ports: 8000\n\n"
    "envs:\n  MODEL: Qwen/Qwen3-4B\n{envs}\n"
    "setup: |\n  uv pip install --system vllm=={release} hf_transfer\n\n"
    "run: |\n  vllm serve $MODEL \\\n    --port 8000 \\\n    --return-sampling-mask \\\n    --logprobs-mode processed_logprobs {extra}\n\n"
    "service:\n  readiness_probe: /v1/models\n"
)


@pytest.mark.parametrize(
    ("envs", "release", "extra", "expected"),
    [
        ("", "0.34.0", "", ["RPL301"]),
        ("", "0.34.0", "\\\n    --enable-scale-out", []),
        ("  EXTRA: --enable-scale-out\n", "0.34.0", "$EXTRA", []),
        ("  EXTRA: null\n", "0.34.0", "$EXTRA", []),  # given at `sky launch --env EXTRA=...`
        ("", "0.29.0", "", []),  # vLLM 0.29 registers the route on every server
        ("", "0.32.0", "", ["RPL301"]),
    ],
)
def test_a_skypilot_task_runs_its_scripts_with_its_envs(check, envs: str, release: str, extra: str, expected: list[str]) -> None:
    results = check({"serve.sky.yaml": TASK.format(envs=envs, release=release, extra=extra)})
    assert family(results, "serve.sky.yaml") == expected


def test_a_skypilot_finding_points_at_the_flag_and_the_fix_adds_scale_out(check) -> None:
    (finding,) = check({"task.yaml": TASK.format(envs="", release="0.34.0", extra="")})["task.yaml"].findings
    assert finding.code == "RPL301" and finding.span.start_line == 14
    assert [edit.content for edit in finding.edits] == [" \\\n    --enable-scale-out"]  # its own continued line


@pytest.mark.parametrize(
    "document",
    [
        "run: |\n  vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n",  # no `resources`: not a task
        "resources:\n  cpus: 4\nrun: null\n",
        "resources:\n  cpus: 4\nrun:\n  - vllm serve m --return-sampling-mask\n",
    ],
)
def test_documents_that_are_no_skypilot_task_script(check, document: str) -> None:
    assert family(check({"task.yaml": document}, release="0.34.0"), "task.yaml") == []


def test_what_a_clients_value_rests_on_survives_the_cache(tmp_path, settled_at_once) -> None:
    """A client in another file than its server is tied after the run, from the cache when the
    file did not change: the message keeps "when `THINK_BUDGET` is unset"."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "serve.sh").write_text(
        "vllm serve m --reasoning-parser qwen3 --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs\n"
    )
    (tree / "loop.py").write_text(
        "import os, requests\n"
        'THINK_BUDGET = int(os.environ.get("THINK_BUDGET", "4096"))\n'
        + SEND.format(body='"top_k": 20, "thinking_token_budget": THINK_BUDGET')
    )

    def messages() -> list[str]:
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(tree)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                main(["check", "--output-format", "json", "--target-vllm", "0.34.0", "--cache-dir", str(tmp_path / "cache"), "."])
        finally:
            os.chdir(cwd)
        return [item["message"] for item in json.loads(out.getvalue())]

    cold = messages()
    assert len(cold) == 1 and "when `THINK_BUDGET` is unset" in cold[0]
    assert messages() == cold
