"""Ask the installed vLLM what it says of a `vllm serve` command line (`preflight --judge`).

Run as a program in a child process (`python -I ask_vllm.py`), never imported by replaylint:
it imports vLLM. It reads `{"argv": [tokens after "vllm serve"]}` on stdin (one a line), and parses the
words as `vllm serve` does (vLLM's own `FlexibleArgumentParser` with the real `serve`
subcommand, its `validate`, `validate_api_server_args`), replaces the model names by a folder
holding only a stand-in `config.json` (a 2-layer Llama; the folder's path ends with the name,
so name heuristics still see it), then runs `AsyncEngineArgs.from_cli_args(args)
.create_engine_config()`, offline. With `--stand-in-gpu` (where vLLM found no device) it first makes
vLLM see one H100 (`stand_in_gpu`). It prints a JSON line for each: `{"ok": true, "version": ...}` or
`{"ok": false, "phase": ..., "exception": ..., "message": vLLM's words}` (the phases of the
project's differential judge: argparse, engine_args, config, other).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import sys
import tempfile

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
_PYDANTIC = re.compile(r"(?:Value error|Assertion failed), (?P<message>.*?) \[type=(?:value|assertion)_error", re.DOTALL)


class Refused(Exception):
    def __init__(self, phase: str, error: BaseException | str, exit_code: int | None = None) -> None:
        super().__init__(phase)
        self.phase = phase
        self.exception = "SystemExit" if isinstance(error, str) else type(error).__name__
        self.message = error if isinstance(error, str) else message_of(error)
        self.exit_code = exit_code


def message_of(error: BaseException) -> str:
    """vLLM's own words: the inner message of a pydantic error that wraps one of vLLM's."""
    errors = None
    if type(error).__name__ == "ValidationError":
        with contextlib.suppress(Exception):
            errors = error.errors()  # type: ignore[attr-defined]
    if errors and len(errors) == 1:
        inner = (errors[0].get("ctx") or {}).get("error")
        if isinstance(inner, (BaseException, str)):
            return str(inner)
    text = str(error)
    found = _PYDANTIC.search(text)
    return found.group("message").strip() if found and text.startswith("1 validation error") else text


def stand_in_model(root: str, name: str) -> str:
    """A folder with the stand-in `config.json` whose path ends with `name`."""
    if os.path.isdir(name):
        return name
    path = os.path.join(root, name.strip("/").replace("..", "__") or "model")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "config.json"), "w", encoding="utf-8") as stream:
        json.dump(STAND_IN_CONFIG, stream)
    return path


def _names_a_model(name: str) -> bool:
    """A draft model's name (not `ngram`, nor a class given by its import path)."""
    return bool(name) and name != "ngram" and ("/" in name or "." not in name or os.path.exists(name))


def _helper(name: str, modules: tuple[str, ...]):  # noqa: ANN202
    for module in modules:
        with contextlib.suppress(Exception):
            found = getattr(importlib.import_module(module), name, None)
            if found is not None:
                return found
    return None


def judge(argv: list[str], root: str) -> dict:
    import vllm.entrypoints.cli.serve as serve_module
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.entrypoints.cli.serve import ServeSubcommand
    from vllm.usage.usage_lib import UsageContext

    parser_class = _helper("FlexibleArgumentParser", ("vllm.utils.argparse_utils", "vllm.utils"))
    parser = parser_class(prog="vllm")
    serve = ServeSubcommand()
    serve.subparser_init(parser.add_subparsers(required=False, dest="subparser"))
    args = _parsed(lambda: parser.parse_args(["serve", *argv]))
    try:
        serve.validate(args)
        if getattr(args, "model_tag", None) is not None:
            args.model = args.model_tag
        # Where the serve subcommand's argument module lives moved between releases.
        cli_args = serve_module.make_arg_parser.__module__
        validate = _helper(
            "validate_api_server_args", (cli_args, "vllm.entrypoints.launchers.launcher", "vllm.entrypoints.openai.api_server")
        )
        if validate is not None:
            validate(args)
    except Exception as error:
        raise Refused("other", error) from None
    args.model = stand_in_model(root, args.model)
    if getattr(args, "model_tag", None) is not None:
        args.model_tag = args.model
    for name in ("tokenizer", "spec_model"):
        if isinstance(getattr(args, name, None), str) and getattr(args, name):
            setattr(args, name, stand_in_model(root, getattr(args, name)))
    draft = getattr(args, "speculative_config", None)
    if isinstance(draft, dict) and isinstance(draft.get("model"), str) and _names_a_model(draft["model"]):
        draft["model"] = stand_in_model(root, draft["model"])
    try:
        engine_args = AsyncEngineArgs.from_cli_args(args)
    except Exception as error:
        raise Refused("engine_args", error) from None
    try:
        engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER, headless=bool(getattr(args, "headless", False)))
    except Exception as error:
        raise Refused("config", error) from None
    return {"ok": True}


def _parsed(parse):  # noqa: ANN001, ANN202
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            return parse()
    except SystemExit as error:
        text = errors.getvalue()
        found = re.search(r"^[^\n]*?: error: (.*)\Z", text, re.DOTALL | re.MULTILINE)
        raise Refused(
            "argparse", found.group(1).strip() if found else text.strip(), error.code if isinstance(error.code, int) else 2
        ) from None
    except Exception as error:
        raise Refused("argparse", error) from None


def main() -> int:
    """One verdict a line of stdin (`{"argv": [...], "env": {NAME: value or null}}`; `env`, for
    a batch of cases, applies to its line only)."""
    cases = [json.loads(line) for line in sys.stdin.read().splitlines() if line.strip()]
    verdicts = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # what vLLM prints goes to stderr; stdout carries the verdicts alone
    sys.stdout = sys.stderr
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE", "VLLM_NO_USAGE_STATS", "DO_NOT_TRACK"):
        os.environ[name] = "1"
    start = dict(os.environ)
    if "--stand-in-gpu" in sys.argv[1:]:
        gpu = _sibling("stand_in_gpu")
        gpu.install()
        importlib.import_module("vllm")
        gpu.after_import()
    with tempfile.TemporaryDirectory(prefix="replaylint-judge-") as root:
        for case in cases:
            _environment(start, case.get("env") or {}, root)
            verdicts.write(json.dumps(_verdict(case["argv"], os.path.join(root, "models"))) + "\n")
            verdicts.flush()
    return 0


def _sibling(name: str):  # noqa: ANN202
    """A module next to this program, loaded by path (replaylint need not be importable here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py"))
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _environment(start: dict[str, str], changes: dict[str, str | None], root: str) -> None:
    os.environ.clear()
    os.environ.update(start)
    os.environ["VLLM_CACHE_ROOT"] = os.path.join(root, "cache")
    for name, value in changes.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = str(value)
    envs = sys.modules.get("vllm.envs")
    if envs is not None and hasattr(envs, "disable_envs_cache"):
        envs.disable_envs_cache()  # each case reads its own environment


def _verdict(argv: list[str], root: str) -> dict:
    try:
        verdict = judge(argv, root)
    except Refused as refused:
        verdict = {"ok": False, "phase": refused.phase, "exception": refused.exception, "message": refused.message}
    except BaseException as error:  # an import that fails, anything vLLM raises outside the phases
        verdict = {"ok": False, "phase": "other", "exception": type(error).__name__, "message": message_of(error)}
    with contextlib.suppress(Exception):
        verdict["version"] = importlib.import_module("vllm").__version__
    return verdict


if __name__ == "__main__":
    sys.exit(main())
