"""Which program a command's words start: vLLM (`vllm serve`, `python -m
vllm.entrypoints.openai.api_server`, `python -m dynamo.vllm`) or an RL framework that starts
vLLM (`trl vllm-serve`, TRL's training scripts, verl, SkyRL, NeMo-RL's scripts, OpenRLHF,
open-instruct's `grpo_fast.py`), behind `uv run`-style runners, `uvx`/`pipx run`, `ray job submit ... --`,
`coverage run`, `accelerate launch`, `torchrun` and Python's own options; any other Python
program is handed over as "trl-script" (its adapter reads it for a TRL trainer that starts vLLM
in process). Words only: what the words mean is `command`'s and `frameworks`'.

A word is its text, None when nothing of it is known, or `Unread` when its text is not known
but its spelling still says something (`$PROJECT_ROOT/examples/run_grpo.py` names a script,
`--data-file=$ROOT/.coverage` is an option).
"""

from __future__ import annotations

import re
from typing import Sequence as Seq, Union

from .framework_registry import EntryPoint, entry_points
from .records import record
from .regexes import on_use

# Launchers whose words are a framework's own (frameworks/ turns them into vLLM settings), from
# the registry. A program of the user's ("trl-script") and those known by their shape (NeMo-RL's
# scripts, SkyRL's modules) hand the adapter the script or module word too.
_FRAMEWORKS = entry_points()
FRAMEWORK_ENTRYPOINTS = frozenset(_FRAMEWORKS)
_USERS_PROGRAM = next(entry.name for _, entry in _FRAMEWORKS.values() if entry.users_program)
# Programs known by their shape (`EntryPoint.script_names`, `any_module`), with the override
# words that confirm them.
_SHAPED_SCRIPTS = tuple((re.compile(entry.script_names), entry) for _, entry in _FRAMEWORKS.values() if entry.script_names)
_SHAPED_MODULES = tuple(entry for _, entry in _FRAMEWORKS.values() if entry.any_module)
_OVERRIDES = {entry.name: on_use(entry.overrides) for _, entry in _FRAMEWORKS.values() if entry.overrides}


@record(unsafe_hash=True)
class Unread:
    """A word whose text is not known statically, as written (quotes included)."""

    raw: str

    def spelled(self) -> str:
        return self.raw.replace('"', "").replace("'", "")


Word = Union[str, None, Unread]

_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PYTHON_OPTIONS_WITH_VALUE = {"-X", "-W", "-c"}
_MODULE_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
# `python -m MODULE` launchers: vLLM's own, and RL frameworks that start vLLM (the registry's).
_MODULE_ENTRYPOINTS = {
    "vllm.entrypoints.openai.api_server": "api_server",
    "dynamo.vllm": "dynamo",
    **{module: name for name, (_, entry) in _FRAMEWORKS.items() for module in entry.modules},
}
# Framework scripts run as files (TRL's training scripts from TRL's repository; open-instruct's
# `python open_instruct/grpo_fast.py` from the repository root: the folder names it).
_SCRIPTS = {script: entry for _, entry in _FRAMEWORKS.values() for script in entry.scripts}
# `PROGRAM SUBCOMMAND` launchers.
_PROGRAMS = {
    ("vllm", "serve"): "serve",
    **{program: name for name, (_, entry) in _FRAMEWORKS.items() for program in entry.programs},
}
_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pdm", "run"), ("pipenv", "run"), ("hatch", "run")}
# Options of those runners that take a value (`uv run --with vllm vllm serve ...`).
_RUNNER_OPTIONS_WITH_VALUE = {
    "--with",
    "-w",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--extra",
    "--group",
    "--env-file",
    "--index",
    "--index-url",
    "-e",
    "--env",
}
# `uv run` options that take a value (uv 0.9); any other option is a flag.
# fmt: off
UV_RUN_VALUES = frozenset((
    "--with", "--with-editable", "--with-requirements", "--python", "-p", "--extra", "--group", "--only-group",
    "--no-group", "--project", "--directory", "--env-file", "--index", "--index-url", "--default-index",
    "--extra-index-url", "--find-links", "-f", "--package", "--config-file", "--cache-dir", "--prerelease",
    "--resolution", "--index-strategy", "--keyring-provider", "--link-mode", "--exclude-newer", "--refresh-package",
    "--reinstall-package", "--upgrade-package", "-P", "--no-binary-package", "--no-build-package", "--color",
    "--python-platform", "--allow-insecure-host", "--no-extra", "--script",
))
# `pipx run [OPTIONS] APP ARGS` (pipx 1.8 `main.py`: `_add_run` and the options every command shares):
# the options without a value, and those with one. `--path` runs a local file named APP.
PIPX_RUN_FLAGS = frozenset((
    "--no-cache", "--refresh", "--no-path-check", "--pypackages", "--fetch-missing-python", "--system-site-packages",
    "--editable", "-e", "--quiet", "-q", "-qq", "--verbose", "-v", "-vv", "-vvv", "--skip-maintenance", "--global",
))
PIPX_RUN_VALUES = frozenset((
    "--python-args", "--with", "--spec", "--python", "--fetch-python", "--index-url", "-i", "--pip-args", "--cooldown", "--backend",
))
# fmt: on
UVX_VALUES = UV_RUN_VALUES | {"--from"}
# Tool runners: a package's command run from an environment of its own (`uvx --from vllm==0.34.0 vllm
# serve`, `uv tool run`, `pipx run --spec vllm vllm serve`), with their options without a value and
# those with one; any other option is not followed.
TOOL_RUNNERS: dict[tuple[str, ...], tuple[frozenset[str], frozenset[str]]] = {
    ("uvx",): (frozenset(), UVX_VALUES),
    ("uv", "tool", "run"): (frozenset(), UVX_VALUES),
    ("pipx", "run"): (PIPX_RUN_FLAGS, PIPX_RUN_VALUES),
}
# `coverage run [OPTIONS] (PYFILE | -m MODULE) ARGS` (coverage 7.17.5 `cmdline.py`, the `run`
# parser: optparse, interspersed arguments off, so the first word that is no option is the program).
_COVERAGE_VALUES = {"--concurrency", "--context", "--data-file", "--include", "--omit", "--save-signal", "--source", "--debug", "--rcfile"}
_COVERAGE_FLAGS = {"-a", "--append", "--branch", "-L", "--pylib", "-p", "--parallel-mode", "--timid"}
# `accelerate launch [OPTIONS] SCRIPT|-m MODULE ARGS` (accelerate 1.16.0 `commands/launch.py`
# `launch_command_parser`: no abbreviations, every `--a_b` also `--a-b`) and `torchrun [OPTIONS]
# SCRIPT|-m MODULE ARGS` (torch `distributed/run.py` `get_args_parser`, every `--a-b` also
# `--a_b`): the options without a value; the others take one. An option not listed: not followed.
_ACCELERATE_FLAGS = frozenset(
    "--cpu --debug --downcast_bf16 --dynamo_use_dynamic --dynamo_use_fullgraph --dynamo_use_regional_compilation "
    "--enable_cpu_affinity --fp8_use_autocast_during_eval --multi_gpu --no_tpu_cluster --quiet -q --same_network --tpu "
    "--tpu_cluster --tpu_use_sudo --use_deepspeed --use_fsdp --use_megatron_lm --use_parallelism_config".split()
)
_ACCELERATE_VALUES = frozenset(
    "--config_file --env --gpu_ids --gradient_accumulation_steps --gradient_clipping --log_dir --machine_rank "
    "--main_process_ip --main_process_port --main_training_function --max_restarts --mixed_precision --monitor_interval "
    "--mpirun_hostfile --num_cpu_threads_per_process --num_machines --num_processes --rdzv_backend --rdzv_conf --role "
    "--tee -t --vm --zero_stage".split()
)
_ACCELERATE_VALUE_GROUPS = (
    "--fsdp_",
    "--megatron_lm_",
    "--fp8_",
    "--parallelism_config_",
    "--deepspeed_",
    "--dynamo_",
    "--offload_",
    "--zero3_",
    "--aws_",
)
_TORCHRUN_FLAGS = frozenset(("--standalone",))
_TORCHRUN_VALUES = frozenset(
    "--nnodes --nproc_per_node --rdzv_backend --rdzv_endpoint --rdzv_id --rdzv_conf --max_restarts --monitor_interval "
    "--start_method --event_log_handler --role --log_dir -r --redirects -t --tee --local_ranks_filter --node_rank "
    "--master_addr --master_port --local_addr --logs_specs --numa_binding --signals_to_handle".split()
)


def _basename(word: str) -> str:
    return word.rstrip("/").rsplit("/", 1)[-1]


def _text(word: Word) -> str | None:
    return word if isinstance(word, str) else None


def script_name(word: Word) -> str | None:
    """The file name a word gives a script, also when a variable holds its folder
    (`$PROJECT_ROOT/examples/run_grpo.py`); None when the name itself is not known."""
    if isinstance(word, str):
        return _basename(word)
    if isinstance(word, Unread):
        name = _basename(word.spelled())
        return None if any(c in name for c in "$`*?[") else name
    return None


def _spelled(word: Word) -> str | None:
    return word if isinstance(word, str) else word.spelled() if isinstance(word, Unread) else None


def _option(word: Word) -> str | None:
    """The option name of a word that is an option (`--data-file` of `--data-file=$ROOT/x`)."""
    text = _spelled(word)
    if text is None or not text.startswith("-"):
        return None
    name = text.split("=", 1)[0]
    return None if "$" in name or "`" in name else name


def split_launcher(words: Seq[Word], python_unknown_first: bool = False) -> tuple[str, int] | None:
    """Find a launcher of vLLM at the start of a command's words.

    Returns (entrypoint, index of the first word its reader takes): `vllm serve` -> "serve",
    `python[3] [-u ...] -m vllm.entrypoints.openai.api_server` -> "api_server",
    `python -m dynamo.vllm` -> "dynamo", and the RL frameworks' launchers (`trl vllm-serve`,
    `python -m verl.trainer.main_ppo`, `python -m openrlhf.cli.train_ppo_ray`, SkyRL's modules and
    NeMo-RL's scripts, whose reader takes the script or module word too; see `frameworks`).
    `ray job submit ... --`, `uv run`, `poetry run` ..., the tool runners (`uvx`, `uv tool run`,
    `pipx run`) and `coverage run` in front are skipped. A first word we cannot read counts as a Python interpreter only when
    `python_unknown_first` (`sys.executable` in argv lists).
    """
    position = _ray_job_entrypoint(words)
    if position is None:
        return None
    while position + 1 < len(words) and (words[position], words[position + 1]) in _RUNNERS:
        position += 2
        while position < len(words) and (_text(words[position]) or "").startswith("-"):
            takes_value = words[position] in _RUNNER_OPTIONS_WITH_VALUE
            position += 2 if takes_value else 1
    position = _past_tool_runner(words, position)
    if position is None or position >= len(words):
        return None
    first = _text(words[position])
    if first is not None and position + 1 < len(words) and (_basename(first), words[position + 1]) in _PROGRAMS:
        return _PROGRAMS[(_basename(first), words[position + 1])], position + 2
    if first is not None and _basename(first) == "coverage":
        return _coverage(words, position + 1)
    if first is not None and _basename(first) == "accelerate" and position + 1 < len(words) and words[position + 1] == "launch":
        return _distributed(words, position + 2, _ACCELERATE_FLAGS, _ACCELERATE_VALUES, _ACCELERATE_VALUE_GROUPS)
    if first is not None and _basename(first) == "torchrun":
        return _distributed(words, position + 1, _TORCHRUN_FLAGS, _TORCHRUN_VALUES)
    shaped = _script_of_shape(words[position])
    if shaped is not None:
        return _shaped_launch(shaped, words, position)
    bare = framework_script(words[position], bare=True)
    if bare is not None:
        return bare, position + 1  # `uv run SCRIPT` (the shell's reader drops the runner first)
    if first is None and not python_unknown_first:
        return None
    if first is not None and not _PYTHON.match(_basename(first)):
        return None
    return _python(words, position + 1)


def _past_tool_runner(words: Seq[Word], position: int) -> int | None:
    """Where the command a tool runner at `position` runs starts (`position` itself when none is
    there); None when an option of the runner is not one we know."""
    first = _text(words[position]) if position < len(words) else None
    runner = next((r for r in TOOL_RUNNERS if (_basename(first or ""), *words[position + 1 : position + len(r)]) == r), None)
    if runner is None:
        return position
    flags, values = TOOL_RUNNERS[runner]
    position += len(runner)
    while position < len(words):
        name = _option(words[position])
        if name is None:
            return position
        if name == "--":
            return position + 1
        if name in values:
            position += 1 if "=" in (_spelled(words[position]) or "") else 2
        elif name in flags:
            position += 1
        else:
            return None
    return None


def _ray_job_entrypoint(words: Seq[Word]) -> int | None:
    """Where the command starts: after `ray job submit [OPTIONS] --` (the entrypoint Ray runs on
    its cluster, as OpenRLHF's and verl's READMEs launch), else at the first word; None for `ray
    job submit` without `--` (where its options end is not known here)."""
    if not submits_a_job(words):
        return 0
    return next((index + 1 for index, word in enumerate(words) if word == "--"), None)


# The `ray job submit` options that give the job its runtime environment: a YAML file, or JSON
# (only one of the two: Ray's `parse_runtime_env_args` refuses both).
_RAY_RUNTIME_ENV_OPTIONS = ("--runtime-env-json", "--runtime-env")


@record(unsafe_hash=True)
class RayJob:
    """`ray job submit [OPTIONS] -- ENTRYPOINT`: Ray runs the entrypoint on its cluster, with the
    runtime environment the options give, not in the submitting shell's environment.
    `runtime_env`: the option that gives it (`--runtime-env` FILE, `--runtime-env-json` JSON),
    the index of the word holding its value, and whether the value follows `=` in that word
    (None: no runtime environment)."""

    runtime_env: tuple[str, int, bool] | None


def ray_job(words: Seq[Word]) -> RayJob | None:
    """The runtime environment option of `ray job submit ... --` (None: not a Ray job). A word
    we cannot read at all is skipped: whether it may be an option is the caller's to say."""
    end = _ray_job_entrypoint(words)
    if not end:
        return None
    runtime_env: tuple[str, int, bool] | None = None
    for index in range(3, end - 1):
        text = _spelled(words[index])
        for option in _RAY_RUNTIME_ENV_OPTIONS if text is not None else ():
            if text == option and index + 1 < end - 1:
                runtime_env = (option, index + 1, False)
            elif text.startswith(option + "="):  # type: ignore[union-attr]
                runtime_env = (option, index, True)
    return RayJob(runtime_env)


def submits_a_job(words: Seq[Word]) -> bool:
    """Whether the command is `ray job submit ... --`: its entrypoint runs on the cluster, in the
    cluster's environment and its runtime env's `env_vars`, never in the submitting process's
    (a container's `env:`, a Dockerfile's `ENV`, a Python call's `env=`)."""
    return tuple(words[:3]) == ("ray", "job", "submit")


def _python(words: Seq[Word], position: int) -> tuple[str, int] | None:
    """The words after a Python interpreter: its options, then `-m MODULE` or a script."""
    while position < len(words):
        word = words[position]
        if word == "-m" and position + 1 < len(words):
            return _module(words, position + 1)
        shaped = _script_of_shape(word)
        if shaped is not None:
            return _shaped_launch(shaped, words, position)
        script = framework_script(word)
        if script is not None:
            return script, position + 1
        text = _text(word)
        if text is not None and text.endswith(".py") and not text.startswith("-"):
            return _USERS_PROGRAM, position  # a program of the user's: its adapter reads it for a TRL trainer
        if text is None or not text.startswith("-") or text.startswith("-m"):
            return None
        position += 2 if text in _PYTHON_OPTIONS_WITH_VALUE else 1
    return None


def _module(words: Seq[Word], position: int) -> tuple[str, int] | None:
    """`-m MODULE`: `position` is the module's word."""
    module = _text(words[position])
    if module == "coverage" and position + 1 < len(words) and words[position + 1] == "run":
        return _coverage(words, position + 1)
    if module == "torch.distributed.run":
        return _distributed(words, position + 1, _TORCHRUN_FLAGS, _TORCHRUN_VALUES)
    if module in _MODULE_ENTRYPOINTS:
        name = _MODULE_ENTRYPOINTS[module]
        given = name in _FRAMEWORKS and _FRAMEWORKS[name][1].program_word_given()
        return name, position if given else position + 1
    if module == "vllm.entrypoints.cli.main" and position + 1 < len(words) and words[position + 1] == "serve":
        return "serve", position + 2
    if module is not None and "." in module:
        shaped = next(((entry.name, position) for entry in _SHAPED_MODULES if _confirmed(entry, words[position + 1 :])), None)
        if shaped is not None:
            return shaped
    # a module of the user's (`python -m dynasor.cli.vllm_server`): read like a program file
    return (_USERS_PROGRAM, position) if module is not None and _MODULE_NAME.match(module) else None


def _coverage(words: Seq[Word], position: int) -> tuple[str, int] | None:
    """`coverage run [OPTIONS] PYFILE|-m MODULE ...`: `position` is the word `run`."""
    if position >= len(words) or words[position] != "run":
        return None
    position += 1
    module = False
    while position < len(words):
        name = _option(words[position])
        if name is None:
            break
        if name in ("-m", "--module"):
            module = True
        elif name in _COVERAGE_VALUES:
            position += 1 if "=" in (_spelled(words[position]) or "") else 2
            continue
        elif name not in _COVERAGE_FLAGS:
            return None  # an option we do not know may take the next word
        position += 1
    if position >= len(words):
        return None
    if module:
        return _module(words, position)
    shaped = _script_of_shape(words[position])
    return _shaped_launch(shaped, words, position) if shaped is not None else None


def _distributed(
    words: Seq[Word], position: int, flags: frozenset[str], values: frozenset[str], groups: tuple[str, ...] = ()
) -> tuple[str, int] | None:
    """`accelerate launch`'s or `torchrun`'s options from `position`, then the program each
    process runs: TRL's training scripts ("trl-train", its arguments), or another Python file
    ("trl-script", from the file's word: its adapter reads it for a TRL trainer that starts
    vLLM in process); a module other than TRL's is no launch we know."""
    module = False
    while position < len(words):
        name = _option(words[position])
        if name is None:
            break
        name = name[:2] + name[2:].replace("-", "_") if name.startswith("--") else name
        inline = "=" in (_spelled(words[position]) or "")
        if name in ("-m", "--module"):
            module = True
        elif name in values or any(name.startswith(group) for group in groups):
            position += 1 if inline else 2
            continue
        elif name not in flags:
            return None  # `--no_python`, `--run_path`, or an option we do not know
        position += 1
    if position >= len(words):
        return None
    if module:
        found = _MODULE_ENTRYPOINTS.get(_text(words[position]) or "")
        return (found, position + 1) if found in _FRAMEWORKS and _FRAMEWORKS[found][1].distributed else None
    script = framework_script(words[position], distributed=True)
    if script is not None:
        return script, position + 1
    name = script_name(words[position])
    return (_USERS_PROGRAM, position) if name is not None and name.endswith(".py") else None


def framework_script(word: Word, bare: bool = False, distributed: bool = False) -> str | None:
    """The entry point of a framework script a word names (also under a variable folder:
    `$REPO/open_instruct/grpo_fast.py`); with `bare`, only one that runs without `python` in front,
    with `distributed`, only one `accelerate launch` and `torchrun` run."""
    text = _spelled(word)
    if text is None:
        return None
    for script, entry in _SCRIPTS.items():
        if (text == script or text.endswith("/" + script)) and (entry.bare or not bare) and (entry.distributed or not distributed):
            return entry.name
    return None


def _script_of_shape(word: Word) -> EntryPoint | None:
    """The entry point whose scripts have the shape of the file a word names (NeMo-RL's
    `examples/run_*.py`, also under a variable folder)."""
    name = script_name(word)
    return next((entry for pattern, entry in _SHAPED_SCRIPTS if name is not None and pattern.match(name)), None)


def _shaped_launch(entry: EntryPoint, words: Seq[Word], position: int) -> tuple[str, int] | None:
    """(the entry point, the script's index) for a script of its shape that the framework ships
    with a default config (its adapter reads that config when the tree holds it) or that its
    overrides follow; else None."""
    if any(script_name(words[position]) == script for script, _ in entry.default_configs):
        return entry.name, position
    return (entry.name, position) if _confirmed(entry, words[position + 1 :]) else None


def _confirmed(entry: EntryPoint, rest: Seq[Word]) -> bool:
    """Whether a word after the program is one of the framework's overrides."""
    overrides = _OVERRIDES.get(entry.name)
    return overrides is not None and any(isinstance(word, str) and overrides.match(word) for word in rest)
