"""A vLLM `--config` YAML loaded by a Python launcher (`subprocess.run(["vllm", "serve", "--config",
"configs/serve.yaml", ...])` in launch/): the relative path is read from the project's folder above the
launcher (the working folder is not known; a program in launch/ runs from there), and the YAML checked on
its own is judged by that launcher too, as by shell scripts, Dockerfiles and workflows (the command
line's words come after the file's and win: `utils/argparse_utils.py:516-546` of vLLM 0.34.0).

A client function called in a loop over tasks the tree spells out (`for task in TASK_OVERRIDES: run(task)`)
sends each task's sampling (`BASE | TASK_OVERRIDES[task]`): a per-task presence penalty is reported at its
line; tasks from outside (`sys.argv`), a task the loop skips or never reaches stay silent."""

from __future__ import annotations

from pathlib import Path

import pytest
from rpl3_heldout_cases import found

FLY = (
    "model: Qwen/Qwen3-4B\nreturn-sampling-mask: true\nlogprobs-mode: processed_logprobs\nenable-scale-out: true\n"
    "speculative-config:\n  method: ngram\n  num_speculative_tokens: 4\n  prompt_lookup_max: 4\n"
    "  rejection_sample_method: fly\n"
)
STANDARD_SPEC = '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "rejection_sample_method": "standard"}'
JSON_DUMPS = f"""import json
import subprocess

SPEC = {STANDARD_SPEC}

if __name__ == "__main__":
    subprocess.run(["vllm", "serve", "--config", "CONFIG_PATH", "--speculative-config", json.dumps(SPEC)], check=True)
"""


def tree(root: Path, launcher: str, where: str = "launch/replay_server.py", config: str = FLY, git: bool = True) -> Path:
    (root / "configs").mkdir(parents=True)
    if git:  # a config named alone is read with the repository that holds it
        (root / ".git").mkdir()
    (root / "configs" / "serve.yaml").write_text(config)
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).write_text(launcher)
    return root


SHELL_LINE = f"vllm serve --config configs/serve.yaml --speculative-config '{STANDARD_SPEC}'"
LAUNCHERS = {
    "json_dumps": JSON_DUMPS.replace("CONFIG_PATH", "configs/serve.yaml"),
    "popen_literal": (
        "import subprocess\n\nsubprocess.Popen(\n    [\n        'vllm', 'serve', '--config', 'configs/serve.yaml',\n"
        f"        '--speculative-config', '{STANDARD_SPEC}',\n    ]\n)\n"
    ),
    "check_call_string": (f"import subprocess\n\nsubprocess.check_call({SHELL_LINE!r}, shell=True)\n"),
}


@pytest.mark.parametrize("spelling", sorted(LAUNCHERS))
def test_a_python_launcher_replacing_the_spec_makes_the_config_clean_alone_and_in_the_tree(tmp_path: Path, spelling: str) -> None:
    assert found(tree(tmp_path / "no_repository", LAUNCHERS[spelling], git=False)) == []  # read from the folder above
    root = tree(tmp_path / "repository", LAUNCHERS[spelling])
    assert found(root) == []
    assert found(root, "configs/serve.yaml") == []  # pre-commit names the config alone


def test_a_project_inside_a_larger_repository_reads_the_config_from_its_own_folder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    tree(tmp_path / "services" / "policy", LAUNCHERS["json_dumps"], where="tools/launch/serve_policy.py", git=False)
    assert found(tmp_path, "services/policy/configs/serve.yaml") == []
    assert found(tmp_path) == []


def test_a_python_launcher_that_keeps_the_spec_leaves_the_finding_at_the_configs_line(tmp_path: Path) -> None:
    root = tree(tmp_path, "import subprocess\n\nsubprocess.run(['vllm', 'serve', '--config', 'configs/serve.yaml'], check=True)\n")
    assert found(root) == [("RPL306", "configs/serve.yaml", 9)]
    assert found(root, "configs/serve.yaml") == [("RPL306", "configs/serve.yaml", 9)]


def test_a_launcher_loading_another_config_does_not_judge_this_one(tmp_path: Path) -> None:
    root = tree(tmp_path, JSON_DUMPS.replace("CONFIG_PATH", "configs/other.yaml"))
    (root / "configs" / "other.yaml").write_text("model: Qwen/Qwen3-4B\n")
    assert found(root, "configs/serve.yaml") == [("RPL306", "configs/serve.yaml", 9)]


def test_a_config_path_from_the_environment_judges_nothing(tmp_path: Path) -> None:
    launcher = (
        JSON_DUMPS.replace("CONFIG_PATH", "{os.environ['SERVE_CONFIG']}")
        .replace('"{os', 'f"{os')
        .replace("import json", "import json\nimport os")
    )
    root = tree(tmp_path, launcher)
    assert found(root, "configs/serve.yaml") == [("RPL306", "configs/serve.yaml", 9)]


# A client function called in a loop over values the tree spells out: each turn's call, its loop name bound.
SERVER = (
    "import os\n\nos.execvp('vllm', ['vllm', 'serve', 'Qwen/Qwen3-4B', '--port', '8000', '--return-sampling-mask',\n"
    "    '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\n"
)
TASKS = """import sys

import requests

URL = "http://localhost:8000/inference/v1/generate"
BASE = {"temperature": 1.0, "top_k": 64, "max_tokens": 1024}
OVERRIDES = {
    "math": {"max_tokens": 4096},
    "creative": {"temperature": 1.2, "presence_penalty": 0.4},
}


def run(task):
    sampling_params = MERGED
    return requests.post(URL, json={"token_ids": [1, 2], "sampling_params": sampling_params}, timeout=300).json()


if __name__ == "__main__":
    LOOP
"""
UNION, SPREAD, DICT_CALL = "BASE | OVERRIDES[task]", "{**BASE, **OVERRIDES[task]}", "dict(BASE, **OVERRIDES[task])"


def per_task(root: Path, merged: str, loop: str) -> Path:
    (root / "tools").mkdir(parents=True)
    (root / "rollout").mkdir()
    (root / "tools" / "launch.py").write_text(SERVER)
    (root / "rollout" / "tasks.py").write_text(TASKS.replace("MERGED", merged).replace("LOOP", loop))
    return root


@pytest.mark.parametrize(
    ("merged", "loop"),
    [
        (UNION, "for task in OVERRIDES:\n        run(task)"),
        (SPREAD, 'for task in ["math", "creative"]:\n        run(task)'),
        (DICT_CALL, "for task in OVERRIDES.keys():\n        print(run(task))"),
        (UNION, 'for task in ("creative", "math"):\n        results = run(task)'),
    ],
)
def test_a_per_task_override_a_loop_sends_is_reported_at_its_line(tmp_path: Path, merged: str, loop: str) -> None:
    assert found(per_task(tmp_path, merged, loop)) == [("RPL302", "rollout/tasks.py", 9)]


@pytest.mark.parametrize(
    "loop",
    [
        'for task in ["math"]:\n        run(task)',  # the penalized task is not run
        "for task in sys.argv[1:]:\n        run(task)",  # the tasks come from the command line
        'for task in OVERRIDES:\n        if task != "creative":\n            run(task)',  # a branch not taken for it
        'for task in OVERRIDES:\n        if task == "creative":\n            break\n        run(task)',  # the loop ends before it
    ],
)
def test_a_loop_that_does_not_send_the_penalized_task_is_clean(tmp_path: Path, loop: str) -> None:
    assert found(per_task(tmp_path, UNION, loop)) == []


# mise tasks: each command of a task's `run`, run by a shell as written.
MASK_ONLY = "vllm serve Qwen/Qwen3-4B --return-sampling-mask --enable-scale-out"


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        (".mise.toml", f'[tasks.serve]\ndescription = "Replay server"\nrun = "{MASK_ONLY}"\n', 3),
        ("mise.toml", f"[tasks]\nserve = '{MASK_ONLY}'\n", 2),
        ("mise.toml", f'[tasks.serve]\ndepends = ["build"]\nrun = [\n  "uv sync",\n  "{MASK_ONLY}",\n]\n', 5),
        ("mise.local.toml", f"[tasks.serve]\nrun = '''\nexport VLLM_LOGGING_LEVEL=INFO\n{MASK_ONLY}\n'''\n", 4),
    ],
)
def test_a_mise_task_starting_the_server_is_read_where_it_is_written(tmp_path: Path, name: str, text: str, line: int) -> None:
    (tmp_path / name).write_text(text)
    assert found(tmp_path) == [("RPL003", name, line)]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("mise.toml", f'[tasks.serve]\nrun = \'{MASK_ONLY} {{{{arg(name="flags", default="")}}}}\'\n'),  # flags given when run
        ("mise.toml", f'[tasks.serve]\nrun = "{MASK_ONLY} {{% if env.PROD %}}--logprobs-mode processed_logprobs{{% endif %}}"\n'),
        ("tasks.toml", f'[tasks.serve]\nrun = "{MASK_ONLY}"\n'),  # not a file mise reads
    ],
)
def test_a_mise_task_whose_words_are_given_when_it_runs_is_open(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    assert found(tmp_path) == []


# A pool that spawns one `vllm serve` per role in a loop over a table the tree spells out: one server per turn.
POOL = """import subprocess
from dataclasses import dataclass, field


@dataclass
class ServerSpec:
    model: str
    extra: list[str] = field(default_factory=list)


ROLES = {
    "judge": ServerSpec("Qwen/Qwen3-8B", ["--max-model-len", "16384"]),
    "policy": ServerSpec("Qwen/Qwen3-4B", ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]),
}


class ServerPool:
    def __init__(self, roles, base_port=8000):
        self.roles = roles
        self.base_port = base_port
        self.procs = {}

    def start(self):
        LOOP
            self.procs[name] = subprocess.Popen(["vllm", "serve", spec.model, "--port", str(port), *spec.extra])
        return self


if __name__ == "__main__":
    ServerPool(ROLES).start()
"""
ENUMERATED = "for offset, (name, spec) in enumerate(self.roles.items()):\n            port = self.base_port + offset"
ITEMS = "for name, spec in self.roles.items():\n            port = self.base_port"


@pytest.mark.parametrize("loop", [ENUMERATED, ITEMS])
def test_a_pool_spawning_the_policy_server_without_scale_out_reports_its_mask_word(tmp_path: Path, loop: str) -> None:
    (tmp_path / "pool.py").write_text(POOL.replace("LOOP", loop))
    assert found(tmp_path) == [("RPL301", "pool.py", 13)]


@pytest.mark.parametrize(
    ("loop", "roles"),
    [
        (ENUMERATED, '"processed_logprobs"]'),  # as written: reported
        (ENUMERATED, '"processed_logprobs", "--enable-scale-out"]'),  # the policy server opens the route
        (ENUMERATED.replace("self.roles.items()", "json.load(open('roles.json')).items()"), '"processed_logprobs"]'),
        (ENUMERATED + "\n            if name == 'policy':\n                break", '"processed_logprobs"]'),  # a turn may end the loop
    ],
)
def test_a_pool_whose_roles_are_not_all_known_here_stays_open(tmp_path: Path, loop: str, roles: str) -> None:
    text = "import json\n" + POOL.replace("LOOP", loop).replace('"processed_logprobs"]', roles)
    (tmp_path / "pool.py").write_text(text)
    expected = [("RPL301", "pool.py", 14)] if loop == ENUMERATED and roles == '"processed_logprobs"]' else []
    assert found(tmp_path) == expected
