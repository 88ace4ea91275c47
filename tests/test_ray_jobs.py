"""`ray job submit ... -- ENTRYPOINT`: the job runs on the Ray cluster with its runtime env's
`env_vars` (and the cluster's own environment), not with what the submitting shell exports.
Spellings from OpenRLHF's README, verl's examples and verl's own `verl/trainer/runtime_env.yaml`."""

from __future__ import annotations

from replaylint.frontends import ExtractContext, SourceFile, shell
from replaylint.model import UNKNOWN, Launch

RUNNER = "VLLM_USE_V2_MODEL_RUNNER"
SERVE = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
# OpenRLHF's README (0.9): the job's runtime env names only a working dir.
OPENRLHF = """\
ray job submit --address="http://127.0.0.1:8265" \\
   --runtime-env-json='{"working_dir": "/openrlhf"}' \\
   -- python3 -m openrlhf.cli.train_ppo_ray \\
   --vllm_num_engines 4 \\
   --pretrain OpenRLHF/Llama-3-8b-sft-mixture
"""
# verl's examples (sglang multi-turn, ppo_trainer): env_vars in the JSON.
VERL_JSON = """\
ray job submit --address="http://localhost:8265" \\
  --runtime-env-json='{"working_dir": "./", "env_vars": {"VERL_PPO_LOGGING_LEVEL": "DEBUG", "VLLM_USE_V2_MODEL_RUNNER": "0"}}' \\
  -- python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct
"""
# OpenRLHF's runtime env in front of verl's trainer.
VERL_WORKING_DIR = """\
ray job submit --address="http://127.0.0.1:8265" \\
   --runtime-env-json='{"working_dir": "/verl"}' \\
   -- python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct
"""
# verl/trainer/runtime_env.yaml, with the runner variable added.
RUNTIME_ENV_YAML = """\
working_dir: ./
excludes: ["/.git/"]
env_vars:
  TORCH_NCCL_AVOID_RECORD_STREAMS: "1"
  CUDA_DEVICE_MAX_CONNECTIONS: "1"
  VLLM_USE_V2_MODEL_RUNNER: "0"
"""


def launch_of(text: str, files: dict[str, str] | None = None) -> Launch:
    (launch,) = shell.extract(SourceFile("run.sh", text), ExtractContext(read_text=(files or {}).get))
    return launch


def findings(check, files: dict[str, str]) -> list[tuple[str, str, int]]:
    result = check(files)
    return [(f.code, f.span.path, f.span.start_line) for r in result.values() for f in r.findings]


def test_an_export_does_not_reach_a_job_submitted_to_ray() -> None:
    launch = launch_of(f"export {RUNNER}=0\n" + VERL_WORKING_DIR)
    assert launch.framework is not None and launch.framework.name == "verl"
    assert RUNNER not in launch.env
    assert not launch.env_open
    openrlhf = launch_of(f"export {RUNNER}=0\n" + OPENRLHF)
    assert openrlhf.framework is not None and RUNNER not in openrlhf.env and not openrlhf.env_open


def test_the_same_export_reaches_the_program_run_in_the_shell() -> None:
    direct = VERL_WORKING_DIR.split("-- ", 1)[1]
    assert launch_of(f"export {RUNNER}=0\n" + direct).env[RUNNER].value == "0"


def test_the_runtime_env_json_sets_the_jobs_variables() -> None:
    launch = launch_of(f"export {RUNNER}=1\n" + VERL_JSON)
    setting = launch.env[RUNNER]
    assert setting.value == "0"
    assert VERL_JSON.splitlines()[1][setting.span.start_col - 1 :].startswith(f'"{RUNNER}": "0"')
    assert setting.span.start_line == 3


def test_a_runtime_env_kept_in_a_variable_points_where_the_variable_is_given() -> None:
    text = f"""RUNTIME_ENV='{{"env_vars": {{"{RUNNER}": "0"}}}}'\nray job submit --runtime-env-json="$RUNTIME_ENV" -- {SERVE}\n"""
    setting = launch_of(text).env[RUNNER]
    assert (setting.value, setting.span.start_line, setting.span.start_col) == ("0", 1, 28)


def test_a_prefix_of_ray_job_submit_stays_with_the_submitter() -> None:
    assert RUNNER not in launch_of(f"{RUNNER}=0 " + VERL_WORKING_DIR).env


def test_a_runtime_env_value_that_reads_the_clusters_variable_is_unknown() -> None:
    text = f"""ray job submit --runtime-env-json='{{"env_vars": {{"{RUNNER}": "${{{RUNNER}}}"}}}}' -- {SERVE}\n"""
    assert launch_of(text).env[RUNNER].value is UNKNOWN


def test_an_unread_working_dir_leaves_the_env_vars_known() -> None:
    """OpenRLHF users' `--runtime-env-json='{"working_dir": "'$working_dir'"}'`."""
    text = f"export {RUNNER}=0\nworking_dir=$PWD\n" + VERL_WORKING_DIR.replace('"/verl"', "\"'$working_dir'\"")
    launch = launch_of(text)
    assert RUNNER not in launch.env and not launch.env_open


def test_a_runtime_env_the_shell_cannot_read_leaves_the_environment_open() -> None:
    launch = launch_of(f'ray job submit --runtime-env-json="$RAY_ENV" -- {SERVE}\n')
    assert launch.env_open


def test_a_runtime_env_yaml_in_the_tree_is_read(check) -> None:
    text = f"export {RUNNER}=1\nray job submit --no-wait --runtime-env=verl/trainer/runtime_env.yaml -- {SERVE}\n"
    launch = launch_of(text, {"verl/trainer/runtime_env.yaml": RUNTIME_ENV_YAML})
    assert launch.env[RUNNER].value == "0"
    assert launch.env[RUNNER].span.path == "verl/trainer/runtime_env.yaml"
    found = findings(check, {"run.sh": text, "verl/trainer/runtime_env.yaml": RUNTIME_ENV_YAML})
    assert ("RPL206", "verl/trainer/runtime_env.yaml", 6) in found
    assert not any(path == "run.sh" and code == "RPL206" for code, path, _ in found)  # the export does not count


def test_a_runtime_env_yaml_outside_the_tree_leaves_the_environment_open() -> None:
    launch = launch_of(f"ray job submit --runtime-env /etc/ray/runtime_env.yaml -- {SERVE}\n")
    assert launch.env_open
    launch = launch_of(f"ray job submit --runtime-env missing.yaml -- {SERVE}\n")
    assert launch.env_open


def test_verls_async_recipe_names_its_runtime_env_from_the_working_dir() -> None:
    """verl's fully_async_policy/shell/dapo_30b_a3b_base_math_fsdp.sh: `export VLLM_USE_V1=1`
    in the shell, the job's runtime env a file under `${PWD}`."""
    text = """\
RAY_ADDRESS=${RAY_ADDRESS:-"http://localhost:8265"}
WORKING_DIR=${WORKING_DIR:-"${PWD}"}
RUNTIME_ENV=${RUNTIME_ENV:-"${WORKING_DIR}/verl/trainer/runtime_env.yaml"}
rollout_mode="async"
if [ "$rollout_mode" = "async" ]; then
    export VLLM_USE_V1=1
fi
ray job submit --no-wait --runtime-env="${RUNTIME_ENV}" \\
    --working-dir "${WORKING_DIR}" \\
    --address "${RAY_ADDRESS}" \\
    -- python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.rollout.name=vllm actor_rollout_ref.model.path=Qwen/Qwen3-30B-A3B-Base
"""
    launch = launch_of(text)
    assert "VLLM_USE_V1" not in launch.env
    assert launch.env_open  # the runtime env file is not known


def test_exports_before_ray_start_reach_the_cluster_and_its_jobs(check) -> None:
    """OpenRLHF's README starts the cluster with `ray start --head` in the same container."""
    before = f"export {RUNNER}=0\nray start --head --node-ip-address 0.0.0.0 --num-gpus 8\nray job submit -- {SERVE}\n"
    assert launch_of(before).env[RUNNER].value == "0"
    assert ("RPL206", "run.sh", 1) in findings(check, {"run.sh": before})
    after = f"ray start --head --node-ip-address 0.0.0.0 --num-gpus 8\nexport {RUNNER}=0\nray job submit -- {SERVE}\n"
    assert RUNNER not in launch_of(after).env
    assert findings(check, {"run.sh": after}) == []


def test_the_runtime_env_overrides_the_clusters_variable() -> None:
    text = (
        f"export {RUNNER}=0\nray start --head\n"
        + f"""ray job submit --runtime-env-json='{{"env_vars": {{"{RUNNER}": "1"}}}}' -- {SERVE}\n"""
    )
    assert launch_of(text).env[RUNNER].value == "1"


def test_a_cluster_stopped_takes_its_environment_with_it() -> None:
    text = f"export {RUNNER}=0\nray start --head\nray stop\nray job submit -- {SERVE}\n"
    assert RUNNER not in launch_of(text).env


def test_a_job_submitted_from_a_shell_started_by_the_script_runs_on_its_cluster() -> None:
    text = f"export {RUNNER}=0\nray start --head\nbash -c 'ray job submit -- {SERVE}'\n"
    assert launch_of(text).env[RUNNER].value == "0"


SUBMIT = ["ray", "job", "submit", "--address", "http://ray-head:8265", "--"]


def _words(argv: list[str]) -> str:
    return "[" + ", ".join(f'"{word}"' for word in argv) + "]"


def test_a_job_submitted_from_a_container_or_a_program_does_not_get_its_environment(check) -> None:
    """A Kubernetes container's `env:`, a Dockerfile's `ENV` and a Python call's `env=` are the
    submitting process's: the job runs with the cluster's environment (not known here), so the
    runner variable there is no finding. The same command without `ray job submit` keeps it."""
    serve = ["vllm", "serve", "m", "--enable-scale-out"]
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        "    - name: NAME\n      image: rayproject/ray:2.40.0\n"
        f"      env: [{{name: {RUNNER}, value: '0'}}]\n      command: COMMAND\n"
    )
    files = {
        "job.yaml": pod.replace("NAME", "submit").replace("COMMAND", _words(SUBMIT + serve)),
        "serve.yaml": pod.replace("NAME", "serve").replace("COMMAND", _words(serve)),
        "job/Dockerfile": f"FROM rayproject/ray:2.40.0\nENV {RUNNER}=0\nCMD {_words(SUBMIT + serve)}\n",
        "serve/Dockerfile": f"FROM vllm/vllm-openai:v0.34.0\nENV {RUNNER}=0\nCMD {_words(serve)}\n",
        "job.py": f"import os, subprocess\nsubprocess.run({_words(SUBMIT + serve)}, env={{**os.environ, '{RUNNER}': '0'}})\n",
        "serve.py": f"import os, subprocess\nsubprocess.run({_words(serve)}, env={{**os.environ, '{RUNNER}': '0'}})\n",
    }
    found = check(files, release="0.34.0")
    assert {name: [f.code for f in result.findings] for name, result in found.items()} == {
        "job.yaml": [],
        "serve.yaml": ["RPL206"],
        "job/Dockerfile": [],
        "serve/Dockerfile": ["RPL206"],
        "job.py": [],
        "serve.py": ["RPL206"],
    }
