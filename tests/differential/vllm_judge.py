#!/usr/bin/env python3
"""vLLM judge: run vLLM's own config-time validation for replay cases.

Runs INSIDE the judge virtualenv (scripts/setup-vllm-judge.sh), never inside
replaylint's own test environment.  See tests/differential/JUDGE.md.

The judging of `vllm serve` command lines and the stand-in GPU are replaylint's
own, the code `replaylint preflight --judge` runs: replaylint.preflight.ask_vllm
and replaylint.preflight.stand_in_gpu, imported from this checkout's src/ (they
need only the standard library and vLLM).  This program adds the case format,
the Python API and Dynamo cases, and the per-case knobs below.

Input: JSON lines on stdin, one case per line:

  {"id": "c1", "argv": ["MODEL", "--return-sampling-mask"], "env": {...}}
      argv = the tokens after `vllm serve`.  Parsed by the real `vllm` CLI
      parser (top-level FlexibleArgumentParser + the real `serve` subparser),
      then the serve entry point's own checks, then
      AsyncEngineArgs.from_cli_args(args).create_engine_config(
          usage_context=OPENAI_API_SERVER).

  {"id": "c2", "engine_kwargs": {"model": "m", "return_sampling_mask": true}}
      Python API: the real vllm.LLM.__init__(**engine_kwargs) runs (so its own
      kwarg conversion, e.g. compilation_config=1, is the real one) up to the
      point where it calls LLMEngine.from_engine_args; there the judge calls
      engine_args.create_engine_config(UsageContext.LLM_CLASS) exactly as
      from_engine_args does, and stops before any engine is built.
      With "via": "EngineArgs" the case runs
      EngineArgs(**engine_kwargs).create_engine_config() directly instead.

  {"id": "c3", "dynamo_argv": ["--model", "MODEL", "--return-sampling-mask"]}
      argv = the tokens after `python -m dynamo.vllm` (needs --dynamo-path): Dynamo's
      own parser splits its flags from vLLM's and builds AsyncEngineArgs, --enable-rl
      is applied as Dynamo's worker does, then create_engine_config(OPENAI_API_SERVER).

  Optional keys of a case:
    "env":          {NAME: value|null}  environment for this case only (applied
                    over the judge's start-up environment; VLLM_USE_V2_MODEL_RUNNER
                    is always unset unless the case gives it).
    "via":          "LLM" (default) or "EngineArgs" (engine_kwargs cases).
    "hf_configs":   {MODEL_NAME: {config.json keys}}  merged over the tiny default
                    config for that model name (e.g. to make it MoE or diffusion).
    "gpus":         how many H100s NVML reports (default 1).
    "triton":       value of vllm.config.vllm.HAS_TRITON (default true).
    "fake_modules": module names made importable (empty) for this case only,
                    e.g. ["arctic_inference"].
    "timeout":      seconds (default 60).
    "note":         ignored.

Command line: --vllm-path DIR (another release installed with
`pip install --no-deps --target DIR`), --dynamo-path DIR (ai-dynamo and
ai-dynamo-runtime installed the same way), --release X.Y.Z (check the version),
--quiet (drop vLLM's log output), --examples [DIR] (print the example cases
of JUDGE.md and exit).

Output: one JSON line per case on stdout, in input order:
  {"id": ..., "ok": true}
  {"id": ..., "ok": false, "phase": "argparse"|"engine_args"|"config"|"other",
   "message": "<vLLM's message>", "exception": "<type name>"}
(plus "exit_code" for SystemExit).  Everything else vLLM prints goes to stderr.
Timing is printed to stderr at the end.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback

T_START = time.perf_counter()


def _parse_judge_args():
    import argparse

    ap = argparse.ArgumentParser(
        prog="vllm_judge.py",
        description="Judge vLLM replay cases (JSON lines on stdin, verdicts on stdout).",
    )
    ap.add_argument(
        "--vllm-path", metavar="DIR",
        help="use the `vllm` package in DIR (another release installed with "
             "`pip install --no-deps --target DIR`) instead of the venv's vllm 0.33.0",
    )
    ap.add_argument(
        "--dynamo-path", metavar="DIR",
        help="ai-dynamo and ai-dynamo-runtime installed with `pip install --no-deps --target DIR`: "
             "the parser of `dynamo_argv` cases",
    )
    ap.add_argument("--release", help="fail unless the imported vLLM has this version")
    ap.add_argument("--quiet", action="store_true",
                    help="drop vLLM's own log output (default: it goes to stderr)")
    ap.add_argument("--examples", metavar="DIR", nargs="?", const="",
                    help="print the example cases of JUDGE.md as JSON lines and exit "
                         "(YAML files they use are written to DIR, default a temp folder)")
    return ap.parse_args()


def example_cases(yaml_dir: str) -> list[dict]:
    """The cases JUDGE.md reports on (spec sections 3, 4, 6 and 8)."""
    os.makedirs(yaml_dir, exist_ok=True)
    yamls = {
        "rsm.yaml": "return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n",
        "rsm-only.yaml": "return-sampling-mask: true\n",
        "rsm-strtrue.yaml": "return-sampling-mask: 'true'\nlogprobs-mode: processed_logprobs\n",
        "rsm-spec-av.yaml": (
            "return_sampling_mask: true\nlogprobs_mode: processed_logprobs\n"
            "speculative-config:\n  method: ngram\n  num_speculative_tokens: 3\n"
            "  prompt_lookup_max: 3\n  enable_adaptive_verification: true\n"
        ),
    }
    for name, text in yamls.items():
        with open(os.path.join(yaml_dir, name), "w") as f:
            f.write(text)
    y = {name: os.path.join(yaml_dir, name) for name in yamls}
    M = "org/model"
    B = [M, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    NG = '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":3}'
    NG_AV = ('{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":3,'
             '"enable_adaptive_verification":true}')
    E3 = '{"method":"eagle3","model":"org/EAGLE3-draft","num_speculative_tokens":3}'
    E3_AV = ('{"method":"eagle3","model":"org/EAGLE3-draft","num_speculative_tokens":3,'
             '"enable_adaptive_verification":true}')
    DM = '{"method":"draft_model","model":"org/small-draft","num_speculative_tokens":3}'
    V2 = "VLLM_USE_V2_MODEL_RUNNER"
    MIXTRAL = {"architectures": ["MixtralForCausalLM"], "model_type": "mixtral",
               "num_local_experts": 4, "num_experts_per_tok": 2}
    c = []

    def cli(cid, argv, **kw):
        c.append({"id": cid, "argv": argv, **kw})

    def py(cid, kwargs, **kw):
        c.append({"id": cid, "engine_kwargs": {"model": M, **kwargs}, **kw})

    R = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    cli("rsm-alone", [M, "--return-sampling-mask"])
    cli("rsm-processed", B)
    cli("no-rsm", [M])
    cli("logits-processors", B + ["--logits-processors", "a.b:C"])
    cli("logits-processors-env1", B + ["--logits-processors", "a.b:C"], env={V2: "1"})
    cli("logits-processors-empty", B + ["--logits-processors", ""])
    cli("sc-ngram", B + ["-sc", NG])
    cli("sc-ngram-env1", B + ["-sc", NG], env={V2: "1"})
    cli("sc-ngram-dotted-av", B + ["-sc", NG, "-sc.enable_adaptive_verification", "true"])
    cli("sc-ngram-json-av", B + ["-sc", NG_AV])
    cli("sc-ngram-json-av-env1", B + ["-sc", NG_AV], env={V2: "1"})
    cli("sc-ngram-json-av-dashed", B + ["-sc", NG_AV.replace("enable_adaptive_verification", "enable-adaptive-verification")])
    cli("sc-dotted-all-av", B + ["-sc.method", "ngram", "-sc.num_speculative_tokens", "3",
                                 "-sc.prompt_lookup_max", "3",
                                 "-sc.enable-adaptive-verification", "true"])
    cli("sc-long-dotted-beats-sc-json", B + ["-sc", NG_AV, "--speculative-config.method", "ngram",
                                             "--speculative-config.num_speculative_tokens", "3",
                                             "--speculative-config.prompt_lookup_max", "3"])
    cli("spec-method-tokens", B + ["--spec-method", "ngram", "--spec-tokens", "3"])
    cli("spec-method-and-sc-method", B + ["--spec-method", "ngram", "-sc", NG])
    cli("sc-eagle3", B + ["-sc", E3])
    cli("sc-eagle3-av", B + ["-sc", E3_AV])
    cli("sc-draft-model", B + ["-sc", DM])
    cli("sc-suffix-arctic", B + ["-sc", '{"method":"suffix","num_speculative_tokens":3}'],
        fake_modules=["arctic_inference"])
    cli("hf-overrides-canvas", B + ["--hf-overrides", '{"canvas_length": 16}'])
    cli("hf-overrides-canvas-env0", B + ["--hf-overrides", '{"canvas_length": 16}'], env={V2: "0"})
    cli("moe-mixtral", ["org/mixtral"] + B[1:], hf_configs={"org/mixtral": MIXTRAL})
    cli("enable-dbo", B + ["--enable-dbo"])
    cli("ubatch-size-2", B + ["--ubatch-size", "2"])
    cli("cc-mode-1", B + ["-cc.mode", "1"])
    cli("enable-prompt-embeds", B + ["--enable-prompt-embeds"])
    cli("kv-sharing-fast-prefill", B + ["--kv-sharing-fast-prefill"])
    cli("batch-sharded", B + ["--enable-batch-sharded-sampling"])
    cli("batch-sharded-tp2", B + ["--enable-batch-sharded-sampling", "-tp", "2"], gpus=2)
    cli("batch-sharded-abbrev-enable-b", B + ["--enable-b"])
    cli("batch-sharded-abbrev-enable-ba", B + ["--enable-ba"])
    cli("disable-batch-sharded", B + ["--disable-batch-sharded-sampling"])
    cli("watermark-env0", B + ["--watermark-config", '{"key": 42}'], env={V2: "0"})
    cli("env0", B, env={V2: "0"})
    cli("env1", B, env={V2: "1"})
    cli("env2", B, env={V2: "2"})
    cli("env-true", B, env={V2: "true"})
    cli("env-empty", B, env={V2: ""})
    cli("rsm-eq-true", [M, "--return-sampling-mask=true", "--logprobs-mode", "processed_logprobs"])
    cli("rsm-bare-true", [M, "--return-sampling-mask", "true", "--logprobs-mode", "processed_logprobs"])
    cli("logprobs-dashed-value", [M, "--return-sampling-mask", "--logprobs-mode", "processed-logprobs"])
    cli("underscore-and-abbrev", [M, "--return_sampling_mask", "--logp", "processed_logprobs"])
    cli("abbrev-return-s", [M, "--return-s", "--logp", "processed_logprobs"])
    cli("abbrev-no-return-s", B + ["--no-return-s"])
    cli("ambiguous-return", [M, "--return", "--logp", "processed_logprobs"])
    cli("ambiguous-spec", B + ["--spec", "ngram"])
    cli("logprobs-eq-underscore", [M, "--return-sampling-mask", "--logprobs_mode=processed_logprobs"])
    cli("no-then-yes", [M, "--no-return-sampling-mask", "--return-sampling-mask"])
    cli("model-flag", ["--model", M, "--return-sampling-mask"])
    cli("no-model", ["--return-sampling-mask"])
    cli("yaml", [M, "--config", y["rsm.yaml"]])
    cli("yaml-rsm-only", [M, "--config", y["rsm-only.yaml"]])
    cli("yaml-eq-rsm-only", [M, "--config=" + y["rsm-only.yaml"]])
    cli("yaml-cli-overrides", [M, "--config", y["rsm.yaml"], "--logprobs-mode", "raw_logprobs"])
    cli("yaml-string-true", [M, "--config", y["rsm-strtrue.yaml"]])
    cli("yaml-nested-sc-av", [M, "--config", y["rsm-spec-av.yaml"]])
    cli("unknown-flag", B + ["--enable-return-sampling-mask"])
    cli("logits-processors-None", B + ["--logits-processors", "None"])
    cli("no-triton", B, triton=False)
    cli("sc-unknown-key", B + ["-sc", '{"method":"ngram","num_speculative_tokens":3,'
                                      '"prompt_lookup_max":3,"adaptive_verification":true}'])
    cli("sc-abbrev-dotted", B + ["--speculative.method", "ngram",
                                 "--speculative.num_speculative_tokens", "3",
                                 "--speculative.prompt_lookup_max", "3"])
    cli("elastic-ep", B + ["--enable-elastic-ep"])
    cli("pcp2", B + ["-pcp", "2"], gpus=2)
    cli("external-launcher-pp2", B + ["--distributed-executor-backend", "external_launcher",
                                      "-pp", "2"], gpus=2)
    cli("r6-reasons-no-rsm-av", [M, "--enable-batch-sharded-sampling", "-tp", "2",
                                 "--max-logprobs", "-1", "-sc", E3_AV], gpus=2, env={V2: "1"})
    cli("r6-reasons-max-logprobs", B + ["--enable-batch-sharded-sampling", "--max-logprobs", "-1"])
    cli("env-true-no-rsm", [M], env={V2: "true"})
    py("py-rsm-alone", {"return_sampling_mask": True})
    py("py-rsm-processed", R)
    py("py-logits-processors", {**R, "logits_processors": ["a.b:C"]})
    py("py-sc-ngram", {**R, "speculative_config": {"method": "ngram", "num_speculative_tokens": 3,
                                                   "prompt_lookup_max": 3}})
    py("py-sc-ngram-av", {**R, "speculative_config": {"method": "ngram", "num_speculative_tokens": 3,
                                                      "prompt_lookup_max": 3,
                                                      "enable_adaptive_verification": True}})
    py("py-sc-ngram-av-yes", {**R, "speculative_config": {"method": "ngram", "num_speculative_tokens": 3,
                                                          "prompt_lookup_max": 3,
                                                          "enable_adaptive_verification": "yes"}})
    py("py-hf-canvas", {**R, "hf_overrides": {"canvas_length": 16}})
    py("py-dbo", {**R, "enable_dbo": True})
    py("py-batch-sharded", {**R, "enable_batch_sharded_sampling": True})
    py("py-env0", R, env={V2: "0"})
    py("py-env-true", R, env={V2: "true"})
    py("py-logprobs-dashed", {"return_sampling_mask": True, "logprobs_mode": "processed-logprobs"})
    py("py-rsm-yes-string", {"return_sampling_mask": "yes", "logprobs_mode": "processed_logprobs"})
    py("py-cc-int-1", {**R, "compilation_config": 1})
    py("py-unknown-kwarg", {**R, "enable_return_sampling_mask": True})
    py("py-EngineArgs-rsm-alone", {"return_sampling_mask": True}, via="EngineArgs")
    py("py-EngineArgs-cc-int-1", {**R, "compilation_config": 1}, via="EngineArgs")
    return c


JUDGE_ARGS = _parse_judge_args()
if JUDGE_ARGS.examples is not None:
    _dir = JUDGE_ARGS.examples or os.path.join(tempfile.gettempdir(), "vllm-judge-examples")
    for _case in example_cases(os.path.abspath(_dir)):
        print(json.dumps(_case))
    sys.exit(0)
if JUDGE_ARGS.vllm_path:
    sys.path.insert(0, os.path.abspath(JUDGE_ARGS.vllm_path))
if JUDGE_ARGS.dynamo_path:  # after vLLM's: Dynamo runs on the vLLM being judged
    sys.path.insert(1 if JUDGE_ARGS.vllm_path else 0, os.path.abspath(JUDGE_ARGS.dynamo_path))

# The stand-in GPU and the `vllm serve` judge are replaylint's own (`preflight --judge` runs
# them): imported from this checkout's package, which needs nothing but the standard library.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "src"))
from replaylint.preflight import ask_vllm, stand_in_gpu  # noqa: E402

# ---------------------------------------------------------------------------
# 0. stdout hygiene: verdicts go to the real stdout, everything else (vLLM's
#    logging, prints, warnings) to stderr, even if written to fd 1 directly.
# ---------------------------------------------------------------------------
_VERDICT_OUT = ask_vllm.keep_stdout_for_verdicts(quiet=JUDGE_ARGS.quiet)

# ---------------------------------------------------------------------------
# 1. Environment before vLLM is imported: offline, quiet, no usage stats.
# ---------------------------------------------------------------------------
ask_vllm.work_offline()
os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
# `vllm` (cli/main.py) calls cli_env_setup(), which sets this; do the same.
os.environ.setdefault("VLLM_WORKER_MULTIPROC_METHOD", "spawn")
os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)
os.environ.pop("VLLM_TARGET_DEVICE", None)

_WORK_ROOT = os.path.join(tempfile.gettempdir(), f"vllmjudge-{os.getuid()}-{os.getpid()}")
shutil.rmtree(_WORK_ROOT, ignore_errors=True)
os.makedirs(_WORK_ROOT)
# vLLM caches (compile cache, assets) go to a private folder.
os.environ["VLLM_CACHE_ROOT"] = os.path.join(_WORK_ROOT, "cache")
os.environ["HF_HOME"] = os.path.join(_WORK_ROOT, "hf")

# ---------------------------------------------------------------------------
# 2. Replaced hardware (replaylint.preflight.stand_in_gpu): vLLM's compiled
#    extension modules are CUDA builds that cannot load next to CPU torch, so
#    each becomes an empty module; NVML answers as H100s (a case's "gpus").
# ---------------------------------------------------------------------------
_vllm_root = stand_in_gpu.vllm_folder()
if _vllm_root is None:
    raise SystemExit("vllm_judge: vllm is not importable")
if JUDGE_ARGS.vllm_path and not os.path.abspath(_vllm_root).startswith(os.path.abspath(JUDGE_ARGS.vllm_path)):
    raise SystemExit(f"vllm_judge: vllm resolves to {_vllm_root}, not under --vllm-path")
STUBBED_EXTENSIONS = stand_in_gpu.install()

import vllm  # noqa: E402
import vllm.envs  # noqa: E402
import vllm.platforms  # noqa: E402

if JUDGE_ARGS.release and vllm.__version__ != JUDGE_ARGS.release:
    raise SystemExit(f"vllm_judge: imported vllm {vllm.__version__}, expected {JUDGE_ARGS.release}")
stand_in_gpu.after_import()

from vllm.platforms import current_platform  # noqa: E402

if not current_platform.is_cuda():
    raise SystemExit(
        f"vllm_judge: expected the CUDA platform, got {type(current_platform).__name__}"
    )

import vllm.entrypoints.cli.serve  # noqa: E402  (imported here: T_PARSER times the parser alone)
import vllm.entrypoints.llm as _llm_mod  # noqa: E402
from vllm.engine.arg_utils import EngineArgs  # noqa: E402
from vllm.usage.usage_lib import UsageContext  # noqa: E402

T_IMPORTED = time.perf_counter()

# ---------------------------------------------------------------------------
# 3. Tiny local models (ask_vllm.STAND_IN_CONFIG, a case's "hf_configs" over it).
# ---------------------------------------------------------------------------
_MODELS_ROOT = os.path.join(_WORK_ROOT, "models")


def local_model_dir(name: str, overrides: dict | None) -> str:
    """A folder with a tiny config.json whose path ends with `name`."""
    return ask_vllm.stand_in_model(_MODELS_ROOT, name, overrides)


# ---------------------------------------------------------------------------
# 4. The `vllm` CLI parser, built as vllm/entrypoints/cli/main.py builds it
#    (only the `serve` subcommand is registered).
# ---------------------------------------------------------------------------
T0 = time.perf_counter()
SERVE = ask_vllm.serve_command()
T_PARSER = time.perf_counter() - T0


# ---------------------------------------------------------------------------
# 5. Per-case machinery.
# ---------------------------------------------------------------------------
CaseError = ask_vllm.Refused  # (phase, exception name, message, exit_code, inner); .wrap(phase, e)
exception_message = ask_vllm.message_of
_copy_namespace = ask_vllm.copy_namespace


class _StopAfterConfig(BaseException):
    """Raised in place of building an engine once the config exists."""


class _CaseTimeout(BaseException):
    pass


_BASE_ENV = dict(os.environ)
_BASE_CWD = os.getcwd()


def apply_env(case_env: dict | None):
    ask_vllm.apply_environment(_BASE_ENV, case_env or {})


def replace_models_in_namespace(args, hf_configs):
    ask_vllm.stand_in_models(args, _MODELS_ROOT, hf_configs)


def _check_words(argv, key):
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise CaseError("other", "TypeError", f"{key} must be a list of strings")


def _parsed(parse):
    return ask_vllm.parsed(SERVE, parse)


def run_argv_case(argv, hf_configs):
    _check_words(argv, "argv")
    ask_vllm.judge_serve(SERVE, argv, _MODELS_ROOT, hf_configs)


def run_dynamo_case(argv, hf_configs):
    """`python -m dynamo.vllm ARGV`: Dynamo's own parser (dynamo/vllm/args.py) splits its flags
    from vLLM's and builds AsyncEngineArgs; its worker's main() applies --enable-rl
    (configure_rl_logprobs_mode) and then calls create_engine_config(OPENAI_API_SERVER)."""
    _check_words(argv, "dynamo_argv")
    if not JUDGE_ARGS.dynamo_path:
        raise CaseError("other", "RuntimeError", "a dynamo_argv case needs --dynamo-path")
    from dynamo.vllm import args as dynamo_args

    dynamo_config, vllm_args = _parsed(lambda: dynamo_args._parse_cli_args(argv))
    replace_models_in_namespace(vllm_args, hf_configs)
    try:
        config = dynamo_args._build_config(dynamo_config, vllm_args)
        dynamo_args.configure_rl_logprobs_mode(config)
    except Exception as e:
        raise CaseError.wrap("engine_args", e) from None
    try:
        config.engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER)
    except Exception as e:
        raise CaseError.wrap("config", e) from None


_REAL_FROM_ENGINE_ARGS = _llm_mod.LLMEngine.from_engine_args


def _judge_from_engine_args(engine_args, usage_context=UsageContext.ENGINE_CONTEXT, *a, **k):
    # What LLMEngine.from_engine_args does first; stop before building.
    try:
        engine_args.create_engine_config(usage_context)
    except Exception as e:
        raise CaseError.wrap("config", e) from None
    raise _StopAfterConfig()


class _JudgeLLMEngine:
    from_engine_args = staticmethod(_judge_from_engine_args)


def run_kwargs_case(kwargs, hf_configs, via):
    if not isinstance(kwargs, dict):
        raise CaseError("other", "TypeError", "engine_kwargs must be an object")
    kwargs = copy.deepcopy(kwargs)
    if "model" in kwargs and isinstance(kwargs["model"], str):
        kwargs["model"] = local_model_dir(kwargs["model"], hf_configs.get(kwargs["model"]))
    ask_vllm.stand_in_other_models(kwargs, _MODELS_ROOT, hf_configs)
    if via == "EngineArgs":
        try:
            engine_args = EngineArgs(**kwargs)
        except Exception as e:
            raise CaseError.wrap("engine_args", e) from None
        try:
            engine_args.create_engine_config()
        except Exception as e:
            raise CaseError.wrap("config", e) from None
        return
    # via LLM.__init__ (default)
    saved = _llm_mod.LLMEngine
    _llm_mod.LLMEngine = _JudgeLLMEngine
    try:
        _llm_mod.LLM(**kwargs)
    except _StopAfterConfig:
        return
    except CaseError:
        raise
    except Exception as e:
        # Raised by LLM.__init__ itself or by EngineArgs(...) before the config.
        raise CaseError.wrap("engine_args", e) from None
    finally:
        _llm_mod.LLMEngine = saved
    raise CaseError("other", "RuntimeError", "LLM() returned without building a config")


def _on_alarm(signum, frame):
    raise _CaseTimeout()



_CASE_KEYS = {"id", "argv", "dynamo_argv", "engine_kwargs", "via", "env", "hf_configs", "gpus",
              "fake_modules", "triton", "timeout", "note"}


def judge_case(case) -> dict:
    cid = case.get("id") if isinstance(case, dict) else None
    out = {"id": cid}
    if not isinstance(case, dict):
        return {**out, "ok": False, "phase": "other", "exception": "TypeError",
                "message": "case must be a JSON object"}
    timeout = 60
    old_alarm = signal.signal(signal.SIGALRM, _on_alarm)
    try:
        unknown = sorted(set(case) - _CASE_KEYS)
        if unknown:
            raise CaseError("other", "KeyError", f"unknown case keys: {unknown}")
        timeout = int(case.get("timeout", 60))
        hf_configs = case.get("hf_configs") or {}
        if not isinstance(hf_configs, dict):
            raise CaseError("other", "TypeError", "hf_configs must be an object")
        apply_env(case.get("env"))
        signal.alarm(max(1, timeout))
        with ask_vllm.emulated_machine(case, stand_in_gpu):
            if "argv" in case:
                run_argv_case(case["argv"], hf_configs)
            elif "dynamo_argv" in case:
                run_dynamo_case(case["dynamo_argv"], hf_configs)
            elif "engine_kwargs" in case:
                run_kwargs_case(case["engine_kwargs"], hf_configs, case.get("via", "LLM"))
            else:
                raise CaseError("other", "KeyError", "case needs 'argv' or 'engine_kwargs'")
        out["ok"] = True
    except CaseError as e:
        out.update(e.verdict())
    except _CaseTimeout:
        out.update(ok=False, phase="other", exception="Timeout",
                   message=f"case did not finish within {timeout} s")
    except BaseException as e:  # noqa: BLE001 - nothing may kill the judge
        traceback.print_exc(file=sys.stderr)
        out.update(ok=False, phase="other", exception=type(e).__name__,
                   message=exception_message(e))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old_alarm)
        apply_env(None)
        with contextlib.suppress(Exception):
            os.chdir(_BASE_CWD)
    return out


WARMUP_CASES = [
    {"id": "warmup-cli", "argv": ["warmup/model", "--return-sampling-mask",
                                  "--logprobs-mode", "processed_logprobs"]},
    {"id": "warmup-llm", "engine_kwargs": {"model": "warmup/model"}},
]


def main() -> int:
    # Warm-up (not reported): the first config build imports the model
    # registry, the model class and the attention backends.
    t0 = time.perf_counter()
    for case in WARMUP_CASES:
        v = judge_case(case)
        if not v.get("ok"):
            sys.stderr.write(f"vllm_judge: warm-up case failed: {json.dumps(v)}\n")
    t_warmup = time.perf_counter() - t0
    n = 0
    t_cases = 0.0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        t0 = time.perf_counter()
        try:
            case = json.loads(line)
        except json.JSONDecodeError as e:
            verdict = {"id": None, "ok": False, "phase": "other",
                       "exception": "JSONDecodeError", "message": str(e)}
        else:
            verdict = judge_case(case)
        t_cases += time.perf_counter() - t0
        n += 1
        _VERDICT_OUT.write(json.dumps(verdict, sort_keys=True) + "\n")
        _VERDICT_OUT.flush()
    mean = (t_cases / n * 1000) if n else 0.0
    sys.stderr.write(
        f"vllm_judge: vllm {vllm.__version__}; import {T_IMPORTED - T_START:.2f} s; "
        f"parser build {T_PARSER * 1000:.0f} ms; warm-up {t_warmup:.2f} s; {n} cases; "
        f"mean {mean:.1f} ms/case; total {time.perf_counter() - T_START:.2f} s\n"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(_WORK_ROOT, ignore_errors=True)
