"""Ask the installed vLLM what it says of a `vllm serve` command line: the one implementation of
the judge that `preflight --judge` runs and the project's differential judge
(tests/differential/vllm_judge.py) imports.

The words are parsed as `vllm serve` parses them (vLLM's own `FlexibleArgumentParser` with the
real `serve` subcommand, built as `vllm`'s `main` builds it; its `validate`,
`validate_api_server_args`), the models named are replaced by folders holding only a stand-in
`config.json` (a 2-layer Llama; each folder's path ends with the name, so name heuristics still
see it), then `AsyncEngineArgs.from_cli_args(args).create_engine_config()` runs, offline. A
refusal names its phase: argparse, other (the serve entry point's checks), engine_args, config.

Run as a program in a child process (`python -P ask_vllm.py`), never imported by replaylint: it
imports vLLM. It reads `{"argv": [tokens after "vllm serve"], "env": {NAME: value or null}}` on
stdin (one a line) and prints a JSON line for each: `{"ok": true, "version": ...}` or
`{"ok": false, "phase": ..., "exception": ..., "message": vLLM's words}`. With `--stand-in-gpu`
(where vLLM found no device) it first makes vLLM see one H100 (`stand_in_gpu`).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import importlib
import io
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TextIO

STAND_IN_CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "vocab_size": 512,
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "head_dim": 16,
    "max_position_embeddings": 2048,
    "rms_norm_eps": 1e-5,
    "rope_theta": 10000.0,
    "hidden_act": "silu",
    "bos_token_id": 1,
    "eos_token_id": 2,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
}
OFFLINE = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE", "VLLM_NO_USAGE_STATS", "DO_NOT_TRACK")
_PYDANTIC = re.compile(r"(?:Value error|Assertion failed), (?P<message>.*?) \[type=(?:value|assertion)_error", re.DOTALL)
_ARGPARSE_ERROR = re.compile(r"^[^\n]*?: error: (.*)\Z", re.DOTALL | re.MULTILINE)


class Refused(Exception):
    """vLLM refuses the launch: in which phase, by which exception, in vLLM's words."""

    def __init__(self, phase: str, exception: str, message: str | None = None, exit_code: object = None, inner: str | None = None) -> None:
        super().__init__(message)
        self.phase = phase
        self.exception = exception
        self.message = message
        self.exit_code = exit_code
        self.inner = inner

    @classmethod
    def wrap(cls, phase: str, error: BaseException) -> Refused:
        return cls(phase, type(error).__name__, message_of(error), inner=inner_exception_name(error))

    def verdict(self) -> dict:
        verdict = {"ok": False, "phase": self.phase, "message": self.message, "exception": self.exception}
        if self.exit_code is not None:
            verdict["exit_code"] = self.exit_code
        if self.inner:
            verdict["inner_exception"] = self.inner
        return verdict


def message_of(error: BaseException) -> str:
    """vLLM's own words. A pydantic ValidationError that wraps one exception raised by vLLM's code
    ("1 validation error for VllmConfig ... Value error, <message> [type=value_error, ...") gives
    that exception's message; other validation errors keep pydantic's whole text."""
    errors = _validation_errors(error)
    if errors and len(errors) == 1:
        inner = (errors[0].get("ctx") or {}).get("error")
        if isinstance(inner, (BaseException, str)):
            return str(inner)
    text = str(error)
    found = _PYDANTIC.search(text)
    return found.group("message").strip() if found and text.startswith("1 validation error") else text


def inner_exception_name(error: BaseException) -> str | None:
    """The type of the one exception a pydantic ValidationError wraps."""
    errors = _validation_errors(error)
    inner = (errors[0].get("ctx") or {}).get("error") if errors and len(errors) == 1 else None
    return type(inner).__name__ if isinstance(inner, BaseException) else None


def _validation_errors(error: BaseException) -> list | None:
    if type(error).__name__ != "ValidationError":
        return None
    with contextlib.suppress(Exception):
        return error.errors()  # type: ignore[attr-defined]
    return None


# -- stand-in models ---------------------------------------------------------------------------


def stand_in_model(root: str, name: str, overrides: dict | None = None) -> str:
    """A folder with the stand-in `config.json` (`overrides` merged over it) whose path ends with
    `name`, so vLLM's name heuristics ('eagle-', 'dflash' in a draft's name) still see it. A name
    that is a folder already is kept."""
    if os.path.isdir(name):
        return name
    blob = json.dumps({**STAND_IN_CONFIG, **(overrides or {})}, sort_keys=True)
    digest = hashlib.sha1(blob.encode()).hexdigest()[:10]
    path = os.path.join(root, digest, name.strip("/").replace("..", "__") or "model")
    if not os.path.exists(os.path.join(path, "config.json")):
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "config.json"), "w", encoding="utf-8") as stream:
            stream.write(blob)
    return path


def stand_in_models(args: Any, root: str, hf_configs: dict | None = None) -> None:
    """Every model a parsed `vllm serve` namespace names, replaced by a stand-in folder."""
    configs = hf_configs or {}
    model = getattr(args, "model_tag", None) or args.model
    args.model = stand_in_model(root, model, configs.get(model))
    if getattr(args, "model_tag", None) is not None:
        args.model_tag = args.model
    stand_in_other_models(args, root, configs)


def stand_in_other_models(launch: Any, root: str, hf_configs: dict) -> None:
    """The tokenizer and draft models of a namespace or of `LLM`'s keyword arguments."""
    get: Callable = dict.get if isinstance(launch, dict) else getattr
    put: Callable = dict.__setitem__ if isinstance(launch, dict) else setattr
    for key in ("tokenizer", "spec_model"):
        name = get(launch, key, None)
        if isinstance(name, str) and name:
            put(launch, key, stand_in_model(root, name, hf_configs.get(name)))
    draft = get(launch, "speculative_config", None)
    if isinstance(draft, dict) and isinstance(draft.get("model"), str) and _names_a_model(draft["model"]):
        draft["model"] = stand_in_model(root, draft["model"], hf_configs.get(draft["model"]))


def _names_a_model(name: str) -> bool:
    """A draft model's name (not `ngram`, nor a class given by its import path)."""
    return bool(name) and name != "ngram" and ("/" in name or "." not in name or os.path.exists(name))


# -- vllm serve --------------------------------------------------------------------------------


@dataclass(frozen=True)  # run by path, alone: no package to import `records` from
class ServeCommand:
    """`vllm serve` as the installed vLLM builds it, and the checks its entry point makes
    (their modules moved between releases)."""

    parser: Any
    subcommand: Any
    validate_api_server_args: Callable | None
    propagate_flash_late_interaction: Callable | None  # 0.32+


@functools.lru_cache(maxsize=1)
def serve_command() -> ServeCommand:
    """The `vllm` CLI parser as vllm/entrypoints/cli/main.py builds it, with `serve` alone."""
    import vllm.entrypoints.cli.serve as serve_module

    parser_class = _helper("FlexibleArgumentParser", ("vllm.utils.argparse_utils", "vllm.utils"))
    parser = parser_class(prog="vllm", description="vLLM CLI")
    parser.add_argument("-v", "--version", action="version", version=_version())
    subcommand = serve_module.ServeSubcommand()
    subcommand.subparser_init(parser.add_subparsers(required=False, dest="subparser")).set_defaults(dispatch_function=subcommand.cmd)
    # The module of the serve subcommand's arguments: openai.cli_args (0.28), launchers.cli_args
    # (0.29-0.32), common.cli_args (0.33).
    cli_args = sys.modules[serve_module.make_arg_parser.__module__]
    validate = _helper(
        "validate_api_server_args", (cli_args.__name__, "vllm.entrypoints.launchers.launcher", "vllm.entrypoints.openai.api_server")
    )
    return ServeCommand(parser, subcommand, validate, getattr(cli_args, "propagate_flash_late_interaction", None))


def judge_serve(command: ServeCommand, argv: list[str], models_root: str, hf_configs: dict | None = None) -> None:
    """What `vllm serve ARGV` does before it builds an engine; raises `Refused` where vLLM stops."""
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.usage.usage_lib import UsageContext

    args = copy_namespace(parsed(command, lambda: command.parser.parse_args(["serve", *argv])))
    try:
        command.subcommand.validate(args)
        if getattr(args, "model_tag", None) is not None:
            args.model = args.model_tag
        headless = bool(getattr(args, "headless", False))
        if command.validate_api_server_args is not None:
            command.validate_api_server_args(args)
    except Exception as error:
        raise Refused.wrap("other", error) from None
    stand_in_models(args, models_root, hf_configs)
    try:
        engine_args = AsyncEngineArgs.from_cli_args(args)
        if command.propagate_flash_late_interaction is not None:
            command.propagate_flash_late_interaction(args, engine_args)
    except Exception as error:
        raise Refused.wrap("engine_args", error) from None
    try:
        engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER, headless=headless)
    except Exception as error:
        raise Refused.wrap("config", error) from None


def parsed(command: ServeCommand, parse: Callable[[], Any]) -> Any:
    """`parse()` under vLLM's parser; argparse's exit is a refusal in its words (kept on stderr)."""
    errors = io.StringIO()
    if hasattr(type(command.parser), "_search_keyword"):
        type(command.parser)._search_keyword = None  # the class remembers an earlier `--help=WORD`
    try:
        with contextlib.redirect_stderr(errors):
            return parse()
    except SystemExit as error:
        text = errors.getvalue()
        found = _ARGPARSE_ERROR.search(text)
        message = found.group(1).strip() if found else text.strip()
        if error.code == 0 and not message:
            message = "exit 0 (help or version printed)"
        raise Refused("argparse", "SystemExit", message, exit_code=error.code) from None
    except Exception as error:  # e.g. a ValueError from --config or --model handling
        raise Refused.wrap("argparse", error) from None
    finally:
        sys.stderr.write(errors.getvalue())


def copy_namespace(args: Any) -> Any:
    try:
        return copy.deepcopy(args)
    except Exception:
        return copy.copy(args)


def _helper(name: str, modules: tuple[str, ...]) -> Any:
    for module in modules:
        with contextlib.suppress(Exception):
            found = getattr(importlib.import_module(module), name, None)
            if found is not None:
                return found
    return None


def _version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("vllm")
    except importlib.metadata.PackageNotFoundError:
        return str(getattr(importlib.import_module("vllm"), "__version__", ""))


# -- the process -------------------------------------------------------------------------------


def keep_stdout_for_verdicts(quiet: bool = False) -> TextIO:
    """The stream for the verdicts alone: what vLLM prints, even on file descriptor 1 directly,
    goes to stderr instead (nowhere when `quiet`)."""
    verdicts = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    if quiet:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.stdout = open(os.devnull, "w")  # for the life of the process
    else:
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    return verdicts


def work_offline() -> None:
    for name in OFFLINE:
        os.environ[name] = "1"


def apply_environment(start: dict[str, str], changes: dict[str, str | None]) -> None:
    """The environment of one launch: `start` with `changes` (None unsets), read afresh by vLLM."""
    os.environ.clear()
    os.environ.update(start)
    for name, value in changes.items():
        if value is None:
            os.environ.pop(str(name), None)
        else:
            os.environ[str(name)] = str(value)
    envs = sys.modules.get("vllm.envs")
    if envs is not None and hasattr(envs, "disable_envs_cache"):
        envs.disable_envs_cache()  # vLLM may have switched to cached reads


def main() -> int:
    """One verdict a line of stdin (`env`, for a batch of cases, applies to its line only). A
    test may give a case the differential's `hf_configs` (the stand-in models' configurations)
    and the machine it emulates (`emulated_machine`); preflight gives neither."""
    cases = [json.loads(line) for line in sys.stdin.read().splitlines() if line.strip()]
    verdicts = keep_stdout_for_verdicts()
    work_offline()
    start = dict(os.environ)
    gpu = None
    if "--stand-in-gpu" in sys.argv[1:]:
        gpu = _sibling("stand_in_gpu")
        gpu.install()
        importlib.import_module("vllm")
        gpu.after_import()
    with tempfile.TemporaryDirectory(prefix="replaylint-judge-") as root:
        for case in cases:
            apply_environment(start, {"VLLM_CACHE_ROOT": os.path.join(root, "cache"), **(case.get("env") or {})})
            with emulated_machine(case, gpu):
                verdict = _verdict(case["argv"], os.path.join(root, "models"), case.get("hf_configs"))
            verdicts.write(json.dumps(verdict) + "\n")
    return 0


@contextlib.contextmanager
def emulated_machine(case: dict, gpu: Any = None) -> Iterator[None]:
    """Another machine, as a test case describes it (preflight's own cases never do): `gpus`
    stand-in H100s (`gpu`: `stand_in_gpu`, installed), vLLM's `HAS_TRITON` set to `triton`, and
    the modules `fake_modules` names importable as empty ones; all undone afterwards."""
    import importlib.machinery
    import types

    config = importlib.import_module("vllm.config.vllm") if "triton" in case else sys.modules.get("vllm.config.vllm")
    if gpu is not None:
        gpu.set_device_count(int(case.get("gpus", 1)))
    if config is not None:
        config.HAS_TRITON = bool(case.get("triton", True))
    added = [name for name in case.get("fake_modules") or () if isinstance(name, str) and name not in sys.modules]
    for name in added:
        module = types.ModuleType(name)
        module.__spec__ = importlib.machinery.ModuleSpec(name, None)
        module.__file__ = f"<stand-in module {name}>"
        sys.modules[name] = module
    _clear_module_probes()
    try:
        yield
    finally:
        if gpu is not None:
            gpu.set_device_count(1)
        if config is not None:
            config.HAS_TRITON = True
        for name in added:
            sys.modules.pop(name, None)
        _clear_module_probes()


def _clear_module_probes() -> None:
    """vLLM remembers which modules it found (`_has_module`): a module added or removed must be looked for again."""
    probes = sys.modules.get("vllm.utils.import_utils")
    for name in ("_has_module", "_has_module_spec"):
        probe = getattr(probes, name, None)
        if hasattr(probe, "cache_clear"):
            probe.cache_clear()


def _sibling(name: str) -> Any:
    """A module next to this program, loaded by path (replaylint need not be importable here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py"))
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _verdict(argv: list[str], models_root: str, hf_configs: dict | None = None) -> dict:
    try:
        judge_serve(serve_command(), argv, models_root, hf_configs)
        verdict: dict = {"ok": True}
    except Refused as refused:
        verdict = refused.verdict()
    except BaseException as error:  # an import that fails, anything vLLM raises outside the phases
        verdict = {"ok": False, "phase": "other", "exception": type(error).__name__, "message": message_of(error)}
    with contextlib.suppress(Exception):
        verdict["version"] = importlib.import_module("vllm").__version__
    return verdict


if __name__ == "__main__":
    sys.exit(main())
