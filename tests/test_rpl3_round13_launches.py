"""Round 13's launches (tests/test_rpl3_heldout13.py's ECS, Taskfile, Truss and tmux cases).

AWS ECS task definitions (`containerDefinitions`, as JSON, as `describe-task-definition` prints it,
and CloudFormation's `AWS::ECS::TaskDefinition`) are read container by container as Docker runs
them: `entryPoint` replaces the image's entrypoint, `command` its arguments, `environment` the
container's variables (`secrets` and `environmentFiles` unknown). go-task Taskfiles: each task's
commands after task's templating (`{{.VAR}}` from the task's then the file's `vars:`; a computed var
or `{{.CLI_ARGS}}` unknown; an internal task no task calls never runs). Baseten Truss:
`docker_server.start_command` with `environment_variables`. A value the outer shell expands into a
`bash -c` or tmux command string is reported where it is written, as in a plain command, and no fix
is written there from the string."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import test_rpl3_round12_launches as round12
from tests.test_configuration import run
from tests.test_yaml_round11_dstack import checked

HELD_OUT = Path(__file__).parent / "data" / "rpl3_heldout13"
REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
REPLAY_WORDS = '"--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"'


def held_out(tmp_path: Path, case: str, changes: dict[str, tuple[str, str]] | None = None) -> list[tuple[str, str, int]]:
    return round12.held_out(tmp_path, case, changes, corpus=HELD_OUT)


# --- ECS task definitions ----------------------------------------------------------------------

ECS_CASE = "ecs_task_definition_override_presence_penalty"
ECS_FILE = "infra/ecs/task-definition.json"


def task_definition(container: str, wrapped: bool = False) -> str:
    definition = f'{{\n  "family": "policy",\n  "containerDefinitions": [\n    {{\n{container}\n    }}\n  ]\n}}\n'
    return f'{{"taskDefinition": {definition}}}' if wrapped else definition


def test_the_ecs_case_an_override_word_of_the_command(tmp_path: Path) -> None:
    assert held_out(tmp_path, ECS_CASE) == [("RPL302", ECS_FILE, 22)]


def test_the_ecs_clean_twin_a_neutral_repetition_penalty(tmp_path: Path) -> None:
    assert held_out(tmp_path, "ecs_task_definition_override_repetition_neutral_clean") == []


@pytest.mark.parametrize(
    ("container", "wrapped", "line"),
    [
        # no entryPoint: the vllm/vllm-openai image's `vllm serve` runs with `command`
        (f'      "image": "vllm/vllm-openai:v0.34.0",\n      "command": ["m", {REPLAY_WORDS},\n        "--enable-trace-replay"]', False, 7),
        # `describe-task-definition`'s output
        (f'      "image": "vllm/vllm-openai:v0.34.0",\n      "command": ["m", {REPLAY_WORDS},\n        "--enable-trace-replay"]', True, 7),
        # a shell script in `command`, a flag from `environment`
        (
            '      "image": "ghcr.io/acme/policy:1",\n      "entryPoint": ["sh", "-c"],\n'
            f'      "command": ["vllm serve m {REPLAY} $TRACE"],\n'
            '      "environment": [\n        {"name": "TRACE", "value": "--enable-trace-replay"}\n      ]',
            False,
            9,
        ),
    ],
)
def test_containers_of_a_task_definition(tmp_path: Path, container: str, wrapped: bool, line: int) -> None:
    assert checked(tmp_path, {"taskdef.json": task_definition(container, wrapped)}) == [("RPL305", "taskdef.json", line)]


CLOUDFORMATION = """AWSTemplateFormatVersion: "2010-09-09"
Resources:
  PolicyTask:
    Type: AWS::ECS::TaskDefinition
    Properties:
      Family: policy
      ContainerDefinitions:
        - Name: vllm
          Image: vllm/vllm-openai:v0.34.0
          Command:
            - Qwen/Qwen3-0.6B
            - --return-sampling-mask
            - --logprobs-mode
            - LOGPROBS_MODE
            - --enable-scale-out
          Environment:
            - Name: HF_HOME
              Value: !Sub "/data/${AWS::Region}"
"""


def test_a_cloudformation_task_definition(tmp_path: Path) -> None:
    assert checked(tmp_path, {"stack.yaml": CLOUDFORMATION.replace("LOGPROBS_MODE", "raw_logprobs")}) == [("RPL003", "stack.yaml", 14)]
    assert checked(tmp_path / "clean", {"stack.yaml": CLOUDFORMATION.replace("LOGPROBS_MODE", "processed_logprobs")}) == []


@pytest.mark.parametrize(
    ("container", "why"),
    [
        (
            '      "image": "ghcr.io/acme/policy:1",\n      "entryPoint": ["sh", "-c"],\n'
            f'      "command": ["vllm serve m {REPLAY} $TRACE"],\n'
            '      "secrets": [{"name": "TRACE", "valueFrom": "arn:aws:ssm:us-east-1:1:parameter/trace"}]',
            "a secret's value is not known",
        ),
        (
            '      "image": "ghcr.io/acme/policy:1",\n      "entryPoint": ["sh", "-c"],\n'
            f'      "command": ["vllm serve m {REPLAY} $TRACE"],\n'
            '      "environmentFiles": [{"value": "arn:aws:s3:::bucket/policy.env", "type": "s3"}]',
            "an environment file may set any variable",
        ),
        ('      "image": "ghcr.io/acme/policy:1",\n      "command": ["--model", "m"]', "another image's entrypoint, no replay word"),
        (
            f'      "image": "vllm/vllm-openai:v0.34.0",\n      "command": ["m", {REPLAY_WORDS}, "{{{{ .TraceFlag }}}}"]',
            "a template's word",
        ),
    ],
)
def test_task_definitions_with_values_from_outside(tmp_path: Path, container: str, why: str) -> None:
    assert checked(tmp_path, {"taskdef.json": task_definition(container)}) == [], why


def test_a_json_file_that_is_not_a_task_definition_is_not_read_as_one(tmp_path: Path) -> None:
    text = json.dumps({"containers": [{"image": "vllm/vllm-openai:v0.34.0", "command": ["m", "--return-sampling-mask"]}]})
    assert checked(tmp_path, {"deploy.json": text}) == []


# --- Taskfiles -------------------------------------------------------------------------------

TASKFILE_CASE = "taskfile_override_top_k_equals_checkpoint_vocab"


def taskfile(tasks: str, file_vars: str = "  MODEL: Qwen/Qwen3-0.6B\n") -> str:
    return f'version: "3"\n\nvars:\n{file_vars}\ntasks:\n{tasks}'


def test_the_taskfile_case_top_k_of_the_checkpoint_vocabulary(tmp_path: Path) -> None:
    assert held_out(tmp_path, TASKFILE_CASE) == [("RPL304", "Taskfile.yml", 17)]


def test_the_taskfile_clean_twin_a_larger_checkpoint(tmp_path: Path) -> None:
    assert held_out(tmp_path, "taskfile_override_top_k_below_larger_checkpoint_vocab_clean") == []


@pytest.mark.parametrize("name", ["Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "Taskfile.dist.yml", "serving/Taskfile.yml"])
def test_taskfile_names_the_walk_keeps(tmp_path: Path, name: str) -> None:
    text = taskfile(f"  serve:\n    cmds:\n      - vllm serve {{{{.MODEL}}}} {REPLAY} --enable-trace-replay\n")
    assert checked(tmp_path, {name: text}) == [("RPL305", name, 9)]


@pytest.mark.parametrize(
    ("tasks", "line"),
    [
        # the task's own var over the file's, found where it is written
        (
            f'  serve:\n    vars:\n      TRACE: "--enable-trace-replay"\n    cmds:\n      - vllm serve {{{{.MODEL}}}} {REPLAY} {{{{.TRACE}}}}\n',
            9,
        ),
        # `cmd:` items, `cmd:` of a task, the short form
        (f"  serve:\n    cmds:\n      - cmd: vllm serve {{{{ .MODEL }}}} {REPLAY} --enable-trace-replay\n", 9),
        (f"  serve:\n    cmd: vllm serve {{{{.MODEL}}}} {REPLAY} --enable-trace-replay\n", 8),
        (f"  serve: vllm serve {{{{.MODEL}}}} {REPLAY} --enable-trace-replay\n", 7),
        # an internal task another task's `deps:` runs
        (f"  up:\n    deps: [serve]\n  serve:\n    internal: true\n    cmds:\n      - vllm serve m {REPLAY} --enable-trace-replay\n", 12),
        # `env:` exported to the command
        (f"  serve:\n    env:\n      TRACE: --enable-trace-replay\n    cmds:\n      - vllm serve m {REPLAY} $TRACE\n", 9),
    ],
)
def test_task_commands(tmp_path: Path, tasks: str, line: int) -> None:
    assert checked(tmp_path, {"Taskfile.yml": taskfile(tasks)}) == [("RPL305", "Taskfile.yml", line)]


@pytest.mark.parametrize(
    ("tasks", "file_vars", "why"),
    [
        ("  serve:\n    cmds:\n      - vllm serve m --return-sampling-mask {{.CLI_ARGS}}\n", "  MODEL: m\n", "the words after `--`"),
        (
            f"  serve:\n    cmds:\n      - vllm serve m {REPLAY} {{{{.TRACE}}}}\n",
            "  TRACE:\n    sh: cat trace-flags\n",
            "a var a command computes",
        ),
        (f"  serve:\n    cmds:\n      - vllm serve m {REPLAY} {{{{.EXTRA}}}}\n", "  MODEL: m\n", "a var the file does not set"),
        (
            f"  serve:\n    internal: true\n    cmds:\n      - vllm serve m {REPLAY} --enable-trace-replay\n",
            "  MODEL: m\n",
            "no task runs it",
        ),
        (f"  serve:\n    cmds:\n      - vllm serve m {REPLAY} $TRACE\n", "  TRACE: --enable-trace-replay\n", "vars are not exported"),
    ],
)
def test_taskfile_values_not_known_or_not_run(tmp_path: Path, tasks: str, file_vars: str, why: str) -> None:
    assert checked(tmp_path, {"Taskfile.yml": taskfile(tasks, file_vars)}) == [], why


# --- Baseten Truss ---------------------------------------------------------------------------

TRUSS_CASE = "truss_speculative_env_vars_synthetic"


def truss(start_command: str, variables: str = "  TRACE: --enable-trace-replay\n", image: str = "vllm/vllm-openai:v0.34.0") -> str:
    return (
        f"model_name: policy\nbase_image:\n  image: {image}\nenvironment_variables:\n{variables}"
        f"docker_server:\n  start_command: {start_command}\n  server_port: 8000\n  predict_endpoint: /v1/completions\n"
    )


def test_the_truss_case_synthetic_verification_from_an_environment_variable(tmp_path: Path) -> None:
    assert held_out(tmp_path, TRUSS_CASE) == [("RPL306", "policy-truss/config.yaml", 12)]


def test_the_truss_clean_twin_block_verification(tmp_path: Path) -> None:
    assert held_out(tmp_path, "truss_speculative_env_vars_block_clean") == []


@pytest.mark.parametrize(
    ("start_command", "line"),
    [
        (f'sh -c "vllm serve m {REPLAY} $TRACE"', 5),
        (f"vllm serve m {REPLAY} $TRACE", 5),
        (f"vllm serve m {REPLAY} --enable-trace-replay", 7),
    ],
)
def test_truss_start_commands(tmp_path: Path, start_command: str, line: int) -> None:
    assert checked(tmp_path, {"config.yaml": truss(start_command)}) == [("RPL305", "config.yaml", line)]


def test_truss_values_from_outside(tmp_path: Path) -> None:
    secret = truss(f'sh -c "vllm serve m {REPLAY} $TRACE"', "  HF_HUB_ENABLE_HF_TRANSFER: '1'\n") + "secrets:\n  TRACE: null\n"
    assert checked(tmp_path, {"config.yaml": secret}) == [], "a variable Baseten sets from a secret"
    no_server = "model_name: policy\nenvironment_variables:\n  TRACE: --enable-trace-replay\nresources:\n  use_gpu: true\n"
    assert checked(tmp_path / "python", {"config.yaml": no_server}) == [], "a Python model: no command"


# --- a variable expanded into a command string -------------------------------------------------

TMUX_CASE = "tmux_trace_replay_toggled_by_variable"


def test_the_tmux_case_at_the_variable(tmp_path: Path) -> None:
    assert held_out(tmp_path, TMUX_CASE) == [("RPL305", "scripts/launch_replay.sh", 13)]


def test_the_tmux_clean_twin_the_toggle_off(tmp_path: Path) -> None:
    assert held_out(tmp_path, "tmux_trace_replay_variable_off_clean") == []


@pytest.mark.parametrize(
    "launch",
    [
        f'bash -c "vllm serve m {REPLAY} $TRACE_FLAGS"',
        f'tmux new-window -n vllm "vllm serve m {REPLAY} ${{TRACE_FLAGS}} 2>&1 | tee log"',
        f'nohup sh -c "exec vllm serve m {REPLAY} $TRACE_FLAGS" &',
    ],
)
def test_a_variable_expanded_into_a_command_string_is_reported_where_it_is_set(tmp_path: Path, launch: str) -> None:
    script = f'TRACE_FLAGS=""\nif true; then\n  TRACE_FLAGS="--enable-trace-replay"\nfi\n{launch}\n'
    assert checked(tmp_path, {"launch.sh": script}) == [("RPL305", "launch.sh", 3)]


def test_a_fix_of_a_variable_expanded_into_a_string_is_written_where_it_is_set(tmp_path: Path) -> None:
    """As for a plain command's word (README: "reported, and fixed, where it is written"); only a
    plain word is written there from the string, whose quoting is not the assignment's."""
    script = 'MODE=raw_logprobs\nbash -c "vllm serve m --return-sampling-mask --enable-scale-out --logprobs-mode $MODE"\n'
    (tmp_path / "launch.sh").write_text(script, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", "launch.sh")
    assert status == 1, err
    [found] = json.loads(out)
    edits = [(e["content"], e["location"]["row"], e["location"]["column"]) for e in found["fix"]["edits"]]
    assert (found["code"], found["location"]["row"], edits) == ("RPL003", 1, [("processed_logprobs", 1, 6)])


def test_a_word_needing_quotes_is_not_written_into_the_variable_from_the_string(tmp_path: Path) -> None:
    spec = "--speculative-config.method ngram --speculative-config.num_speculative_tokens 3"
    script = f'REJECT=synthetic\nbash -c "vllm serve m {REPLAY} {spec} --speculative-config.rejection_sample_method $REJECT"\n'
    (tmp_path / "launch.sh").write_text(script, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--unsafe-fixes", "--output-format", "json", "launch.sh")
    assert status == 1, err
    assert [(f["code"], f["location"]["row"], _edits(f)) for f in json.loads(out)] == [("RPL306", 1, [])]
    literal = script.replace("$REJECT", "synthetic")
    (tmp_path / "launch.sh").write_text(literal, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--unsafe-fixes", "--output-format", "json", "launch.sh")
    assert [len(_edits(f)) for f in json.loads(out)] == [1], "written in the string itself, the word is fixed"


def _edits(finding: dict) -> list[dict]:
    return (finding["fix"] or {}).get("edits", [])
