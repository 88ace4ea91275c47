"""Frontends: one per file syntax. Each turns a file into `Launch`es and fixes into edits.

A frontend module exposes `extract(source, context) -> list[Launch]` and
`render(launch, fix, source) -> list[Edit] | None` (None: the fix cannot be written in this
file), and `parses(text) -> bool` for the check after `--fix`. Frontends are imported lazily,
so a run that only sees YAML never imports libcst.
"""

from __future__ import annotations

import importlib
import os
import re
from types import ModuleType
from typing import Any

from ..framework_registry import prefilters
from ..regexes import on_use
from ..shells import SHELLS
from ..vllm.prefilter_patterns import client_words, found_at, without_mask
from .triggers import PYTHON_LAUNCHERS, VLLM_WORDS, Words, words_in

__all__ = ["ExtractContext", "ParseError", "SourceFile", "kind_for", "load", "relevant"]


_MODULES = {
    "python": "replaylint.frontends.python",
    "shell": "replaylint.frontends.shell",
    "dockerfile": "replaylint.frontends.dockerfile",
    "yaml": "replaylint.frontends.yaml",
    "toml": "replaylint.frontends.toml",
    "json": "replaylint.frontends.json_engines",
    "notebook": "replaylint.frontends.notebook",
    "makefile": "replaylint.frontends.recipes",
    "justfile": "replaylint.frontends.recipes",
    "systemd": "replaylint.frontends.command_lines",
    "procfile": "replaylint.frontends.command_lines",
    "apptainer": "replaylint.frontends.command_lines",
    "tox": "replaylint.frontends.command_lines",
    "supervisord": "replaylint.frontends.command_lines",
    "nomad": "replaylint.frontends.command_lines",
}
KINDS = tuple(_MODULES)
_FROM_SOURCE = frozenset({"ExtractContext", "ParseError", "SourceFile"})


def __getattr__(name: str) -> Any:
    """The frontends' shared types, imported when first asked for: a pre-commit run that the
    prefilter settles asks for none (`source` costs 6 ms to import)."""
    if name in _FROM_SOURCE:
        from .. import source

        return getattr(source, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_SHELLS = frozenset(name.encode() for name in SHELLS)  # a `#!` line is read as bytes

# The prefilter, on raw bytes (substring tests: memchr-fast). Every rule needs the mask,
# and each spelling of it contains one of MASK_WORDS (argparse abbreviations stop at `--return-s`;
# the ambiguous `--return` is an error worth reporting; SageMaker writes SAMPLING_MASK), except
# two, which need vLLM somewhere in the file: a non-integer runner variable (RPL201), and a
# `--config` that loads a vLLM config file (vLLM accepts only .yaml/.yml; the file may hold the
# mask) or is ignored (`--config=`, RPL202). Python also needs something that can start an
# engine or a process.
_MASK_WORDS = (b"sampling_mask", b"sampling-mask", b"SAMPLING_MASK", b"--return")


def _mentions_mask(words: Words) -> bool:
    """Any of MASK_WORDS (word by word, in three scans of a typical file instead of four)."""
    return (
        (b"ampling" in words and (b"sampling_mask" in words or b"sampling-mask" in words))
        or b"SAMPLING_MASK" in words
        or b"--return" in words
    )


# An engine-argument mapping found by content (`python/mappings`) starts nothing itself: the mask
# turned on by a literal key or keyword (`"return_sampling_mask": True`, `return_sampling_mask=True`).
# A pair counts too (`kw.setdefault("return_sampling_mask", True)`, `("return_sampling_mask", True)` in a list
# of pairs a loop writes). A config class's field default counts too (`return_sampling_mask: bool = True`, a dataclass,
# pydantic model or NamedTuple that another module spreads into the engine), and an attribute write on engine
# arguments built without a launcher word (`engine_args.return_sampling_mask = True` after `from_cli_args`).
_MASK_ON = re.compile(
    rb"""return_sampling_mask(?:["']\s*\]?\s*[:=,]|\s*=|\s*:\s*[\w.\[\]| ]+=)\s*(?:True|1|["']?true|[\w.]*[Ff]ield\(\s*default\s*=\s*True)\b"""
)


# What precedes a script file a shell script runs, on its line: `bash x.sh`, `sh "$DIR/x.sh"`, `source x.sh`,
# `. x.sh`, `./x.sh`, `dir/x.sh`.
_BEFORE_SCRIPT_FILE = re.compile(rb"(?:^|[\s;&|(`])(?:(?:ba|da|k|z)?sh|source|\.)[ \t]|/[\w.-]*$", re.M)


def _runs_script_file(data: bytes) -> bool:
    """(Not on a comment line: a script's `# Usage: ./run.sh log` runs nothing.)"""
    offset = data.find(b".sh")
    while offset >= 0:
        start = data.rfind(b"\n", 0, offset) + 1
        if not data[offset + 3 : offset + 4].isalnum() and not data[start:offset].lstrip().startswith(b"#"):
            if _BEFORE_SCRIPT_FILE.search(data, start, offset):
                return True
        offset = data.find(b".sh", offset + 1)
    return False


def turns_mask_on(data: bytes) -> bool:
    """Whether a file turns the mask on by a literal key, keyword or config field default."""
    return found_at(_MASK_ON, data, (b"return_sampling_mask",))


# The server's flag as a word of its own (`["--return-sampling-mask", ...]`): a list another module
# splices into the `vllm serve` command it starts.
_SERVER_FLAG = re.compile(rb"""["']--return[-_]sampling[-_]mask["']""")


def _not_an_argument(data: bytes, offset: int) -> bool:
    """Not a call's first argument (vLLM's own `add_argument("--return-sampling-mask", ...)`)."""
    return data[max(0, offset - 200) : offset].rstrip()[-1:] != b"("


# A config class's bool field for the mask, off (`return_sampling_mask: bool = False`), in a module that
# imports nothing of vLLM (vLLM's own `ModelConfig` does): a launcher that turns each bool field into its
# bare flag gives `--return-sampling-mask` whatever the value (verl-tool's `ModelService.load_model`)
_MASK_FIELD_OFF = re.compile(rb"return_sampling_mask[ \t]*:[ \t]*bool[ \t]*=[ \t]*False[ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_IMPORTS_VLLM = re.compile(rb"^[ \t]*(?:from|import)[ \t]+vllm\b", re.MULTILINE)


def _user_field_line(data: bytes, offset: int) -> bool:
    """Only indentation before it on its line (a class body's field), in a module not of vLLM."""
    start = data.rfind(b"\n", 0, offset) + 1
    return start < offset and not data[start:offset].strip() and _IMPORTS_VLLM.search(data) is None


_FRAMEWORK_PREFILTERS = {kind: prefilters(kind) for kind in ("yaml", "toml", "shell")}
# ECS, a Nomad job, a dev container's lifecycle commands
_NOMAD_JOB = re.compile(rb'(?m)^[ \t]*job[ \t]+"')  # a Nomad job specification opens with its `job "name" {` block
_TASK_DEFINITION = re.compile(
    rb'"(?:containerDefinitions|AWS::ECS::TaskDefinition|TaskGroups|(?:onCreate|updateContent|postCreate|postStart|postAttach)Command)"'
)
_JSON_MASK_ON = re.compile(rb'"return_sampling_mask"\s*:\s*(?:true|1)\b')  # all a JSON file can launch


def relevant(kind: str, data: bytes, wrappers: bool = True) -> bool:
    """Whether a file of `kind` may hold anything a rule reports (decided without decoding).

    The rare words are looked for first, so a typical file costs a handful of memchr scans.
    A file in UTF-16 or UTF-32 (with a byte-order mark) is looked at in UTF-8. `wrappers`: a shell
    script that runs a script file counts (the shell frontend reads it when a file it runs counts)."""
    if data[:1] in (b"\xff", b"\xfe", b"\x00"):
        from ..files import as_utf8

        data = as_utf8(data)
    if kind == "supervisord" and b"[program:" not in data:
        return False  # nginx.conf, logrotate.conf...: no program supervisord starts
    if kind == "nomad" and (b"task" not in data or not _NOMAD_JOB.search(data)):
        return False  # Terragrunt, Packer, Vault...: no job and task Nomad runs
    words = words_in(data, kind)  # None: none of the words every answer below needs (one scan when Hyperscan is there)
    if words is None:
        return False
    if kind == "json":
        if _TASK_DEFINITION.search(data):  # an ECS task definition's containers, a Nomad job's tasks, ...: command lines
            return _mentions_mask(words) or _needs_vllm_alone("yaml", words)
        return b"return_sampling_mask" in words and found_at(_JSON_MASK_ON, data, (b'"return_sampling_mask"',))
    if any(words.any(prefilter.groups[0]) and prefilter.matches(data) for prefilter in _FRAMEWORK_PREFILTERS.get(kind, ())):
        return True  # a framework config that may launch with the mask without naming it (the registry's)
    if kind == "toml":
        return _mentions_mask(words)
    if not _mentions_mask(words) and not _needs_vllm_alone(kind, words):
        if kind == "shell":  # its words may reach a launch of a script file it runs (`readers.shell.script_files`)
            return wrappers and b".sh" in words and _runs_script_file(data)
        return kind == "python" and builds_from_config(data, words)
    return (
        kind != "python"
        or words.any(PYTHON_LAUNCHERS)
        or (b"return_sampling_mask" in words and found_at(_MASK_ON, data, (b"return_sampling_mask",)))
        or (b"--return" in words and found_at(_SERVER_FLAG, data, (b"'--return", b'"--return'), _not_an_argument))
        or (b"return_sampling_mask" in words and found_at(_MASK_FIELD_OFF, data, (b"return_sampling_mask",), _user_field_line))
    )


# Words without which a file the prefilter turns away holds no HTTP client of a replay server that
# another file starts (`cross_file`), as the rules that read clients declare them.
_CLIENT_WORDS = client_words()


def may_hold_client(kind: str | None, data: bytes) -> bool:
    return any(word in data for word in _CLIENT_WORDS.get(kind or "", ()))


# A config file read by path, where the mask may be (`@hydra.main(config_path=..., config_name=...)`,
# `OmegaConf.load("conf/x.yaml")`, `yaml.safe_load`/`json.load` of a file named from `__file__`
# or by a relative path written in the file, `json.loads` of its text read on the same line),
# in a file that builds an engine.
_CONFIG_BY_PATH = re.compile(rb"config_name\s*=|OmegaConf\.load\(|yaml\.safe_load\(|json\.load(?:\(|s\([^\n]*\.read(?:_text)?\()")
_ENGINE_CALL = re.compile(rb"\b(?:LLM|EngineArgs)\(")
_SERVE_WORDS = re.compile(rb"[\"']vllm[\"'],\s*[\"']serve[\"']")
_RELATIVE_CONFIG = re.compile(rb"[\"'][^\"'/\s][^\"'\n]*\.(?:json|ya?ml)[\"']")  # `open("configs/engine.json")`


def _builds_engine(data: bytes, words: Words) -> bool:
    return (b"LLM(" in words or b"EngineArgs(" in words) and found_at(_ENGINE_CALL, data, (b"LLM(", b"EngineArgs("))


def _starts_server(data: bytes, words: Words) -> bool:
    """`subprocess.Popen(cmd)` of vLLM's server module (`"-m", "vllm.entrypoints.openai.api_server"`)
    or `"vllm", "serve"`, whose flags the program may take from the config file."""
    return b"subprocess" in words and (
        b"vllm.entrypoints.openai.api_server" in words or found_at(_SERVE_WORDS, data, (b'"vllm"', b"'vllm'"))
    )


# An engine built from a config section spread into it (FlagScale's `LLM(**llm_cfg)` of
# `cfg.get("llm", {})`, `LLM(**cfg.llm)`, `LLM(**config["llm"])`: the config loaded by a helper of
# the tree that another file holds).
_CONFIG_SPREAD = on_use(rb"\bLLM\(\*\*[\w.]*(?i:cfg|conf)[\w.\[\]\"']*\)")


def builds_from_config(data: bytes, words: Words | None = None) -> bool:
    """Whether a Python file builds an engine from a config file it names by path, or from a
    config section it spreads into `LLM` (a helper of the tree may load the file)."""
    words = words if words is not None else Words(data, None)
    return loads_config_by_path(data, words) or (b"LLM(" in words and spreads_config(data))


def spreads_config(data: bytes) -> bool:
    return b"LLM(**" in data and found_at(_CONFIG_SPREAD, data, (b"LLM(**",))  # (a pattern starting with `\b`: `search` steps every byte)


def loads_config_by_path(data: bytes, words: Words | None = None) -> bool:
    """Whether a Python file builds an engine (or starts vLLM's server) from a config file it
    names by path (the rare words first: a file without them costs two memchr scans)."""
    words = words if words is not None else Words(data, None)
    return (
        (b"config_name" in words or b"OmegaConf.load(" in words or b"safe_load(" in words or b"json.load" in words)
        and found_at(_CONFIG_BY_PATH, data, (b"config_name", b"OmegaConf.load(", b"yaml.safe_load(", b"json.load"))
        and (_builds_engine(data, words) or _starts_server(data, words))
        and (b"config_name" in words or b"OmegaConf.load(" in words or b"__file__" in words or _RELATIVE_CONFIG.search(data) is not None)
    )


_WITHOUT_MASK = without_mask()


def _needs_vllm_alone(kind: str, words: Words) -> bool:
    """What can make findings without the mask in the file (the runner variable, a file the
    launch reads), as the rules that need it declare it (`vllm.prefilter_patterns`)."""
    return any(declared.found(kind, words) for declared in _WITHOUT_MASK) and words.any(VLLM_WORDS)


_KINDS_BY_SUFFIX = {
    ".py": "python",
    ".pyi": "python",
    ".sh": "shell",
    ".bash": "shell",
    ".sbatch": "shell",  # SLURM batch scripts: shell scripts sbatch runs
    ".slurm": "shell",
    ".service": "systemd",
    ".container": "systemd",  # Podman Quadlet units: `command_lines` tells them by name
    ".def": "apptainer",  # Apptainer definition files (`command_lines.apptainer` reads those with a `Bootstrap:` header)
    ".hcl": "nomad",  # `*.nomad.hcl` jobs; the prefilter keeps those with a task (Terraform's `.tf` is not read)
    ".nomad": "nomad",
    ".conf": "supervisord",  # `supervisord.conf`, `conf.d/*.conf`; the prefilter keeps those with a program
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".json": "json",
    ".ipynb": "notebook",
    ".mk": "makefile",
    ".just": "justfile",
}
_KINDS_BY_NAME = {
    "makefile": "makefile",
    "gnumakefile": "makefile",
    "justfile": "justfile",
    ".justfile": "justfile",
    "procfile": "procfile",
    "tox.ini": "tox",
}

_PROCFILE_VARIANT = re.compile(r"procfile\.[\w-]+\Z")  # `Procfile.dev`; not `Procfile.dev.md`
_DOCUMENT_SUFFIXES = (".md", ".rst", ".txt", ".adoc", ".html")  # prose about a Procfile


def kind_for(path: str, head: bytes = b"") -> str | None:
    """The frontend for a file, from its name (and shebang when it has no extension). String
    methods rather than os.path: a large tree asks this of every file."""
    name = path[path.rfind("/") + 1 :] if os.sep == "/" else os.path.basename(path)
    lowered = name.lower()
    dot = lowered.rfind(".", 1)  # as os.path.splitext: a leading dot starts no suffix (`.bashrc`)
    suffix = lowered[dot:] if dot > 0 and lowered[:dot].strip(".") else ""
    kind = _KINDS_BY_SUFFIX.get(suffix)
    if kind is not None:
        return None if lowered == "pyproject.toml" else kind
    by_name = _KINDS_BY_NAME.get(lowered)
    if by_name is not None:
        return by_name
    if suffix == ".ini":
        return "supervisord"  # RHEL's `supervisord.d/*.ini`; the prefilter keeps those with a program (tox.ini is named above)
    if _PROCFILE_VARIANT.match(lowered) and suffix not in _DOCUMENT_SUFFIXES:  # `foreman start -f Procfile.dev`
        return "procfile"
    if (
        lowered in ("dockerfile", "containerfile")
        or lowered.endswith(".dockerfile")
        or lowered.startswith(("dockerfile.", "containerfile."))
    ):
        return "dockerfile"
    if suffix == "" and head.startswith(b"#!"):
        program = _shebang_program(head[2:].split(b"\n", 1)[0].strip().split())
        if program in _SHELLS:
            return "shell"
        if program.startswith(b"python"):
            return "python"
    return None


_ENV_VALUES = (b"-u", b"--unset", b"-C", b"--chdir")  # `env`'s options that take the next word


def _shebang_program(interpreter: list[bytes]) -> bytes:
    """The program a `#!` line runs: its interpreter's name, or for `env` the first word after
    env's options and assignments (`#!/usr/bin/env -S bash -eu`, `#!/usr/bin/env PYTHONUNBUFFERED=1 python3`)."""
    program = interpreter[0].rsplit(b"/", 1)[-1] if interpreter else b""
    position = 1
    while program == b"env" and position < len(interpreter):
        word = interpreter[position]
        if word in _ENV_VALUES:
            position += 2
        elif word.startswith(b"-") or b"=" in word:
            position += 1
        else:
            return word.rsplit(b"/", 1)[-1]
    return program


def load(kind: str) -> ModuleType | None:
    """The frontend module for `kind`, or None when that frontend is not available."""
    try:
        return importlib.import_module(_MODULES[kind])
    except ModuleNotFoundError as error:
        if error.name == _MODULES[kind]:
            return None
        raise
