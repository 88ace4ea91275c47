#!/usr/bin/env python3
"""The framework judge: run an RL framework's own config-to-engine code, then vLLM's checks.

Runs INSIDE the judge virtualenv (`.venv-judge`, scripts/setup-vllm-judge.sh), with the
frameworks installed `--no-deps` by scripts/setup-framework-judges.sh; never inside replaylint's
test environment. It loads tests/differential/vllm_judge.py as a library first (so vLLM is
imported under that judge's CPU stand-ins: NVML answering for H100s, empty compiled kernels, tiny
local models), then imports each framework from its PyPI wheel.

Input, one JSON object per line on stdin:

  {"id": "...", "framework": "verl", "release": "0.9.1", "entry": MODULE, "argv": ["key=value", ...],
   "config_dir": DIR|null, "config_name": NAME|null, "overrides": [[KEY, VALUE], ...],
   "env": {NAME: VALUE}}

  `release`: the framework release whose code judges the case (its wheel's folder,
  `<framework>-<release>`); `entry`: the module or command the launch runs (SkyRL's `serve` or
  `main_base`); `argv`: the entry point's words after the module (`python -m
  verl.trainer.main_ppo ARGV`, `trl vllm-serve ARGV`, ...); `config_dir`/`config_name`: a
  configuration file given to it; `overrides`: dotted keys and values applied as its
  command-line overrides would be; `env`: the launch's environment.

Output, one JSON line per case:

  {"id": ..., "framework_error": {"exception", "message", "where"} | null,
   "engine": {"argv": [...]} | {"namespace": {...}} | {"engine_kwargs": {...}},
   "env": {...}, "verdict": <vllm_judge verdict>, "requests": [{"name", "params", "verdict"}]}

`framework_error` is set when the framework's own code refused the configuration (its
exception, and the framework file that raised it); `judge_error` when this script failed.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
VLLM_JUDGE = REPO / "tests" / "differential" / "vllm_judge.py"


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vllm-path", help="a vLLM release installed with `pip install --no-deps --target DIR`")
    parser.add_argument("--release", help="fail unless this vLLM version is imported")
    parser.add_argument("--frameworks-path", required=True, help="the folder scripts/setup-framework-judges.sh fills")
    parser.add_argument("--quiet", action="store_true", help="drop vLLM's and the frameworks' log output")
    return parser.parse_args()


ARGS = _parse_args()


def _load_vllm_judge():
    """tests/differential/vllm_judge.py as a module: its stand-ins are installed and vLLM imported."""
    argv = ["vllm_judge.py"]
    if ARGS.vllm_path:
        argv += ["--vllm-path", ARGS.vllm_path]
    if ARGS.release:
        argv += ["--release", ARGS.release]
    if ARGS.quiet:
        argv.append("--quiet")
    saved, sys.argv = sys.argv, argv
    try:
        spec = importlib.util.spec_from_file_location("vllm_judge", VLLM_JUDGE)
        module = importlib.util.module_from_spec(spec)
        sys.modules["vllm_judge"] = module
        spec.loader.exec_module(module)
    finally:
        sys.argv = saved
    return module


VJ = _load_vllm_judge()
T_VLLM = time.perf_counter()

from vllm.engine.arg_utils import AsyncEngineArgs  # noqa: E402
from vllm.platforms import interface as _platform_interface  # noqa: E402
from vllm.sampling_params import SamplingParams  # noqa: E402
from vllm.usage.usage_lib import UsageContext  # noqa: E402
from vllm.v1.engine.input_processor import InputProcessor  # noqa: E402

# vLLM's cumem allocator (sleep mode, which verl and SkyRL turn on) is a compiled CUDA extension
# that every CUDA build has; vllm_judge replaces compiled extensions by empty modules, so answer
# as a CUDA host does.
_platform_interface.Platform.is_cumem_allocator_available = lambda self: self.is_cuda()

FRAMEWORKS = Path(ARGS.frameworks_path).resolve()
sys.path.insert(0, str(HERE))
from judge_support import FrameworkError, JudgeError, Launch  # noqa: E402

# -- vLLM's verdicts on what a framework built ----------------------------------------------


class _Captured:
    config = None


def _recording_create_engine_config():
    real = AsyncEngineArgs.create_engine_config

    def create(self, *args, **kwargs):
        _Captured.config = real(self, *args, **kwargs)
        return _Captured.config

    return real, create


def _run_namespace_case(namespace, hf_configs):
    """What `AsyncEngineArgs.from_cli_args(namespace)` and the server's
    `create_engine_config(OPENAI_API_SERVER)` do with a namespace a framework filled itself."""
    args = VJ._copy_namespace(namespace)
    VJ.replace_models_in_namespace(args, hf_configs)
    try:
        engine_args = AsyncEngineArgs.from_cli_args(args)
    except Exception as e:
        raise VJ.CaseError.wrap("engine_args", e) from None
    try:
        engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER, headless=bool(getattr(args, "headless", False)))
    except Exception as e:
        raise VJ.CaseError.wrap("config", e) from None


def vllm_verdict(launch: Launch) -> dict:
    """vllm_judge's verdict on the launch (argv, kwargs or namespace), with the VllmConfig kept for
    the request checks."""
    _Captured.config = None
    real, recording = _recording_create_engine_config()
    AsyncEngineArgs.create_engine_config = recording
    try:
        if launch.namespace is not None:
            case = {"id": "namespace", "env": launch.env, "gpus": launch.gpus, "engine_kwargs": {}}
            original = VJ.run_kwargs_case
            VJ.run_kwargs_case = lambda kwargs, hf_configs, via: _run_namespace_case(launch.namespace, hf_configs)
            try:
                verdict = VJ.judge_case(case)
            finally:
                VJ.run_kwargs_case = original
        elif launch.argv is not None:
            verdict = VJ.judge_case({"id": "argv", "argv": launch.argv, "env": launch.env, "gpus": launch.gpus})
        else:
            via = "EngineArgs" if launch.via == "EngineArgs" else "LLM"
            case = {"id": "kwargs", "engine_kwargs": launch.engine_kwargs, "env": launch.env, "gpus": launch.gpus, "via": via}
            verdict = VJ.judge_case(case)
    finally:
        AsyncEngineArgs.create_engine_config = real
    verdict.pop("id", None)
    return verdict


class _RequestSide:
    """What InputProcessor._validate_params reads from its engine: the VllmConfig's parts, as
    InputProcessor.__init__ sets them (the renderer and tokenizer, which need a real model, are
    left out: the sampling checks do not read them)."""

    def __init__(self, vllm_config) -> None:
        self.vllm_config = vllm_config
        self.model_config = vllm_config.model_config
        self.speculative_config = vllm_config.speculative_config
        self.structured_outputs_config = vllm_config.structured_outputs_config
        self.diffusion_config = getattr(vllm_config, "diffusion_config", None)
        self.tokenizer = None
        build = getattr(InputProcessor, "_build_logits_processors_params_validator", None)
        self.validate_logits_processors_params = build(self) if build else (lambda params: None)

    def __getattr__(self, name):
        """InputProcessor's other helpers, run on these parts."""
        return getattr(InputProcessor, name).__get__(self)


def describe_request(params) -> dict:
    if isinstance(params, SamplingParams):
        return {name: getattr(params, name) for name in ("temperature", "top_k", "top_p", "logprobs")}
    return dict(params)


def request_verdict(vllm_config, params) -> dict | None:
    """vLLM's own request checks (SamplingParams, then the engine's InputProcessor) on one request
    the framework would send (a SamplingParams the framework built, or its keywords)."""
    if isinstance(params, dict) and "framework_error" in params:
        return None
    try:
        sampling = params if isinstance(params, SamplingParams) else SamplingParams(**params)
    except Exception as e:  # noqa: BLE001 - SamplingParams' own refusal is the verdict
        return {"ok": False, "phase": "sampling_params", "exception": type(e).__name__, "message": VJ.exception_message(e)}
    try:
        InputProcessor._validate_params(_RequestSide(vllm_config), sampling, ("generate",))
    except AttributeError as e:  # a part of the engine _RequestSide does not have: not vLLM's verdict
        return {"ok": None, "phase": "judge", "exception": "AttributeError", "message": str(e)}
    except Exception as e:  # noqa: BLE001
        return {"ok": False, "phase": "request", "exception": type(e).__name__, "message": VJ.exception_message(e)}
    return {"ok": True}


# -- the frameworks ---------------------------------------------------------------------------


RUNNER_MODULES = {"verl": "runner_verl", "skyrl": "runner_skyrl", "openrlhf": "runner_openrlhf", "trl": "runner_trl"}


class Runners:
    """One runner at a time, made when the first case of its framework release comes; the
    previous one is forgotten first (its framework's modules, its folders on sys.path, and what
    its `close` undoes), so one process judges several releases of the same package in turn."""

    def __init__(self) -> None:
        self.key: tuple[str, str] | None = None
        self.runner = None

    def get(self, framework: str | None, release: str):
        if framework not in RUNNER_MODULES:
            return None
        if self.key == (framework, release):
            return self.runner
        if self.key is not None:
            forget(self.key[0], self.runner)
        try:
            self.runner = importlib.import_module(RUNNER_MODULES[framework]).Runner(FRAMEWORKS, release)
        except Exception as error:  # noqa: BLE001
            traceback.print_exc(file=sys.stderr)
            self.runner = _Unavailable(f"{framework} {release} could not be imported here: {type(error).__name__}: {error}")
        self.key = (framework, release)
        return self.runner


def forget(framework: str, runner) -> None:
    if hasattr(runner, "close"):
        runner.close()
    for name in [name for name in sys.modules if name == framework or name.startswith(framework + ".")]:
        del sys.modules[name]
    for folder in getattr(runner, "folders", ()):
        while folder in sys.path:
            sys.path.remove(folder)


class _Unavailable:
    def __init__(self, why: str) -> None:
        self.why = why

    def launch(self, case):
        raise JudgeError(self.why)


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""


def judge(case: dict, runners: Runners) -> dict:
    out = {"id": case.get("id"), "framework_error": None}
    runner = runners.get(case.get("framework"), case.get("release", ""))
    if runner is None:
        return {**out, "judge_error": f"no runner for framework {case.get('framework')!r}"}
    base_env = dict(os.environ)
    cwd = os.getcwd()
    try:
        launch = runner.launch(case)
    except FrameworkError as error:
        if error.exception in ("ModuleNotFoundError", "ImportError"):
            return {**out, "judge_error": f"a module the framework imports is not installed here: {error.message}"}
        return {**out, "framework_error": {"exception": error.exception, "message": error.message, "where": error.where}}
    except JudgeError as error:
        return {**out, "judge_error": str(error)}
    except BaseException as error:  # noqa: BLE001 - nothing a case does ends the judge
        traceback.print_exc(file=sys.stderr)
        where = _where(error)
        if str(FRAMEWORKS) in where and not isinstance(error, (KeyboardInterrupt, ImportError)):
            message = VJ.exception_message(error)
            return {**out, "framework_error": {"exception": type(error).__name__, "message": message, "where": where}}
        return {**out, "judge_error": f"{type(error).__name__}: {error} at {where}"}
    finally:
        os.environ.clear()
        os.environ.update(base_env)
        with contextlib.suppress(OSError):
            os.chdir(cwd)
    out["engine"] = launch.describe()
    out["env"] = launch.env
    out["verdict"] = vllm_verdict(launch)
    config = _Captured.config
    out["requests"] = []
    for name, params in launch.requests:
        verdict = request_verdict(config, params) if config is not None and out["verdict"].get("ok") else None
        out["requests"].append({"name": name, "params": describe_request(params), "verdict": verdict})
    return out


def main() -> int:
    started = time.perf_counter()
    cases = []
    for line in sys.stdin:
        if line.strip():
            try:
                cases.append(json.loads(line))
            except json.JSONDecodeError as error:
                cases.append({"id": None, "framework": None, "note": str(error)})
    runners = Runners()
    count = 0
    # A framework's releases one after the other: each is imported once.
    for case in sorted(cases, key=lambda c: (str(c.get("framework")), str(c.get("release")))):
        try:
            result = judge(case, runners)
        except Exception as error:  # noqa: BLE001
            result = {"id": None, "judge_error": f"{type(error).__name__}: {error}"}
        VJ._VERDICT_OUT.write(json.dumps(result, sort_keys=True, default=str) + "\n")
        VJ._VERDICT_OUT.flush()
        count += 1
    sys.stderr.write(
        f"engine_judge: vLLM imported in {T_VLLM - VJ.T_START:.1f} s; {count} cases in {time.perf_counter() - started:.1f} s\n"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        import shutil

        shutil.rmtree(VJ._WORK_ROOT, ignore_errors=True)
