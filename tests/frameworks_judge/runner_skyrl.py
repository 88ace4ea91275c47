"""SkyRL (PyPI `skyrl` 0.4.0): `python -m skyrl.train.entrypoints.main_base ARGV` (or
`.serve`) up to the namespace its vLLM server actor gives `AsyncEngineArgs.from_cli_args`, and the
sampling parameters of its requests (judge virtualenv only).

Real (skyrl's wheel, unmodified): `SkyRLTrainConfig.from_cli_overrides` (OmegaConf's words, the
`+` refusal, the dataclass key checks, `SkyRLTrainConfig.__post_init__`), the entry point's
validation (`serve._validate_serve_cfg`; `main_base` runs `validate_cfg`), `build_vllm_cli_args`
(vLLM's own parser defaults, SkyRL's settings, `engine_init_kwargs` set last with `setattr`), and,
for `main_base`, `get_sampling_params_for_backend` for `generator.sampling_params` and
`generator.eval_sampling_params` (unset: the config's greedy eval parameters). `serve` sends no
request of SkyRL's (`InferenceOnlyEntrypoint.run` keeps the servers up for outside clients). The server actor's one change that matters before `from_cli_args`,
`cli_args.enable_scale_out = True` (`vllm_server_actor.py:696`), is made here as it does it.

Replaced: none of SkyRL's code; no Ray cluster or server is started (`build_vllm_cli_args` needs
none). A request's keys that are not `SamplingParams` fields (none with SkyRL's defaults) would be
dropped, as vLLM's server reads only its own.
"""

from __future__ import annotations

import sys
import types
import typing
from pathlib import Path

import typing_extensions
from judge_support import FrameworkError, JudgeError, Launch, stderr_text, vllm_env


class Runner:
    def __init__(self, frameworks: Path, release: str) -> None:
        folder = frameworks / f"skyrl-{release}"
        if not (folder / "skyrl").is_dir():
            raise JudgeError(f"skyrl {release} is not installed (scripts/setup-framework-judges.sh)")
        self.folders = [str(folder), str(folder / "skyrl-gym"), str(frameworks / "skyrl-deps")]
        for path in (str(frameworks / "common"), *self.folders):
            if path not in sys.path:
                sys.path.insert(0, path)
        # skyrl asks for Python 3.12; on 3.11 pydantic refuses `typing.TypedDict` in its models
        # (`skyrl/tinker/types.py`) and asks for typing_extensions' class, which 3.12's is.
        typing.TypedDict = typing_extensions.TypedDict
        _gpu_model_runner_stand_in()
        _frontend_args_at_its_old_place()

    def launch(self, case: dict) -> Launch:
        from skyrl.backends.skyrl_train.inference_servers.utils import build_vllm_cli_args
        from skyrl.train.config import SkyRLTrainConfig

        argv = list(case.get("argv") or [])
        try:
            with stderr_text():
                config = SkyRLTrainConfig.from_cli_overrides(argv)
                self._validate(case.get("entry", ""), config)
                namespace = build_vllm_cli_args(config)
        except (Exception, SystemExit) as error:
            raise FrameworkError.from_exception(error) from None
        namespace.enable_scale_out = True
        launch = Launch(namespace=namespace, env=vllm_env(dict(case.get("env") or {})))
        # `serve` keeps the servers up for outside clients (`InferenceOnlyEntrypoint.run` only
        # waits): SkyRL sends no request of its own there.
        launch.requests = [] if case.get("entry", "").endswith(".serve") else self._requests(config)
        return launch

    @staticmethod
    def _validate(entry: str, config) -> None:
        if entry.endswith(".serve"):
            from skyrl.train.entrypoints import serve

            serve._validate_serve_cfg(config)
        else:
            from skyrl.train.utils import validate_cfg

            validate_cfg(config)

    @staticmethod
    def _requests(config) -> list[tuple[str, dict]]:
        from skyrl.backends.skyrl_train.inference_servers.engine_utils import get_sampling_params_for_backend
        from vllm.sampling_params import SamplingParams

        fields = set(SamplingParams.__struct_fields__) if hasattr(SamplingParams, "__struct_fields__") else None
        requests = []
        for name, params in (("rollout", config.generator.sampling_params), ("evaluation", config.generator.eval_sampling_params)):
            sampling = get_sampling_params_for_backend("vllm", params)
            if fields is not None:
                sampling = {key: value for key, value in sampling.items() if key in fields}
            requests.append((name, sampling))
        return requests


def _gpu_model_runner_stand_in() -> None:
    """`new_inference_worker_wrap` (imported by `build_vllm_cli_args`' module) wraps methods of
    vLLM's `GPUModelRunner` for weight sync inside the GPU workers; that module does not import
    on CPU. A class with the methods it wraps stands in; none of them runs here."""
    try:
        import vllm.v1.worker.gpu_model_runner  # noqa: F401
    except Exception:  # noqa: BLE001
        module = types.ModuleType("vllm.v1.worker.gpu_model_runner")

        class GPUModelRunner:
            def load_model(self, *args, **kwargs):
                raise RuntimeError("not judged: model loading")

            def post_kv_cache_wake_up(self, *args, **kwargs):
                raise RuntimeError("not judged: KV cache")

        module.GPUModelRunner = GPUModelRunner
        sys.modules[module.__name__] = module


def _frontend_args_at_its_old_place() -> None:
    """skyrl 0.4.0 pins vLLM 0.30.0 and imports `FrontendArgs` from
    `vllm.entrypoints.launchers.cli_args`; vLLM 0.34.0 has it in `vllm.entrypoints.common.cli_args`
    (the same parser options). The old name is made to point at the new module."""
    try:
        import vllm.entrypoints.launchers.cli_args  # noqa: F401
    except ImportError:
        import vllm.entrypoints.common.cli_args as moved

        sys.modules["vllm.entrypoints.launchers.cli_args"] = moved
