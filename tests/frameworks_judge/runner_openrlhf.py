"""OpenRLHF (0.7.5 to 0.11.2): `python -m openrlhf.cli.train_ppo_ray ARGV` up to the keywords its
Ray actor hands vLLM (judge virtualenv only).

Real (OpenRLHF's wheel, unmodified): the module's `__main__` block (its argparse parser, 0.10+
`hierarchize`, and the checks and adjustments it makes to the arguments), then `train(args)`,
whose `create_vllm_engines(...)` call (with the arguments as train passes them) builds the actor
keywords; then the actor's own `__init__` (`RolloutRayActor`, `LLMRayActor`,
`LLMRayActorAsync`): the keys it pops, the `VLLM_*` variables it sets, and the keywords it gives
`vllm.AsyncEngineArgs(**kwargs)` (0.9+, and 0.8's async actor) or `vllm.LLM(**kwargs)` (0.7.5,
0.8's actor), which are the launch.

Replaced: Ray tasks of the engine module run in this process (0.7.5's
`get_all_env_variables`, which returns the environment a Ray worker has: this one's);
`get_strategy` (DeepSpeed's strategy, which needs GPUs) answers an object whose
`print` does nothing; `ray.init`, placement groups (all bundles on one node), `ray.get` and the
cluster's address (`global_worker.gcs_client.address`, read by 0.9.1-0.9.7's actor) answer at once
(no cluster: they place actors, they set no engine argument); the actor's `.options(...).remote(...)` runs its
`__init__` in this process, stopped where it builds vLLM's engine. Requests are not judged:
OpenRLHF builds them in its experience maker, which needs the models, and without the mask
(which no OpenRLHF flag can turn on) vLLM's replay checks on requests do not apply.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import runpy
import sys
import types
from pathlib import Path

from judge_support import FrameworkError, JudgeError, Launch, stderr_text, vllm_env


class _Stop(BaseException):
    def __init__(self, value) -> None:
        self.value = value


class _Strategy:
    def print(self, *args, **kwargs) -> None:
        pass


class _PlacementGroup:
    bundle_specs = [{"GPU": 1, "CPU": 1}] * 64

    def ready(self):
        return self


class Runner:
    def __init__(self, frameworks: Path, release: str) -> None:
        folder = frameworks / f"openrlhf-{release}"
        if not (folder / "openrlhf").is_dir():
            raise JudgeError(f"openrlhf {release} is not installed (scripts/setup-framework-judges.sh)")
        self.folders = [str(frameworks / "openrlhf-deps"), str(folder)]
        for path in (str(frameworks / "common"), *self.folders):
            if path not in sys.path:
                sys.path.insert(0, path)
        _flash_attn_stand_in()
        _ray_for_vllm()
        self.script = folder / "openrlhf" / "cli" / "train_ppo_ray.py"

    def close(self) -> None:
        for name in [name for name in sys.modules if name == "flash_attn" or name.startswith("flash_attn.")]:
            del sys.modules[name]

    def launch(self, case: dict) -> Launch:
        import ray
        import ray.util.placement_group

        placement = sys.modules["ray.util.placement_group"]  # `ray.util.placement_group` is also a function

        env = dict(case.get("env") or {})
        saved_env = dict(os.environ)
        os.environ.update(env)
        sys.argv = [str(self.script), *(case.get("argv") or [])]
        from ray._private.worker import global_worker

        patches = [
            # 0.9.1-0.9.7's actor copies the cluster's address into RAY_ADDRESS when unset
            (global_worker, "gcs_client", types.SimpleNamespace(address="127.0.0.1:6379")),
            (ray, "init", lambda *a, **k: None),
            (ray, "is_initialized", lambda: True),
            (ray, "get", lambda value, *a, **k: value),
            (ray, "get_gpu_ids", lambda: [0]),
            (placement, "placement_group", lambda *a, **k: _PlacementGroup()),
            (ray.util, "placement_group_table", lambda *a, **k: {"bundles_to_node_id": dict.fromkeys(range(64), "node")}),
        ]
        patches += self._module_patches()
        try:
            with _patched(patches), stderr_text() as text:
                try:
                    runpy.run_path(str(self.script), run_name="__main__")
                except _Stop as stop:
                    kwargs, via, engine_env = stop.value
                except SystemExit as error:
                    raise FrameworkError.from_exception(error, text.getvalue()) from None
                except JudgeError:
                    raise
                except Exception as error:
                    raise FrameworkError.from_exception(error) from None
                else:
                    raise JudgeError("train_ppo_ray started no vLLM engine (is --vllm.num_engines set?)")
        finally:
            sys.argv = [sys.argv[0]]
            os.environ.clear()
            os.environ.update(saved_env)
        return Launch(engine_kwargs=kwargs, via=via, env=engine_env)

    def _module_patches(self) -> list:
        """`get_strategy`, and each Ray actor class of the engine modules replaced by one whose
        `.options(...).remote(...)` runs the actor's own `__init__` here."""
        import importlib

        import openrlhf.utils

        patches = [(openrlhf.utils, "get_strategy", lambda args: _Strategy())]
        launcher = importlib.import_module("openrlhf.trainer.ray.launcher")
        for attribute in [name for name in vars(launcher) if name.endswith("ActorGroup")]:
            # train makes its model actor groups after the vLLM engines: none came
            patches.append((launcher, attribute, _no_engine))
        for name in ("openrlhf.trainer.ray.vllm_engine", "openrlhf.trainer.ray.vllm_engine_async"):
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError:
                continue
            for attribute, value in vars(module).items():
                if hasattr(value, "__ray_actor_class__"):
                    patches.append((module, attribute, _LocalActor(value.__ray_actor_class__)))
                elif hasattr(value, "remote") and callable(getattr(value, "_function", None)):
                    # a Ray task (0.7.5's `get_all_env_variables`): run here
                    patches.append((module, attribute, types.SimpleNamespace(remote=value._function)))
            patches.append((module, "placement_group", lambda *a, **k: _PlacementGroup()))
        return patches


def _no_engine(*args, **kwargs):
    raise JudgeError("train_ppo_ray starts no vLLM engine here (no --vllm.num_engines)")


class _LocalActor:
    """An OpenRLHF actor class whose `.remote(**kwargs)` runs its `__init__` in this process,
    stopped at vLLM's engine."""

    def __init__(self, cls) -> None:
        self.cls = cls

    def options(self, *args, **kwargs):
        return self

    def remote(self, *args, **kwargs):
        import vllm

        def stop_engine_args(*engine_args, **engine_kwargs):
            raise _Stop((engine_kwargs, "EngineArgs", vllm_env(dict(os.environ))))

        def stop_llm(*engine_args, **engine_kwargs):
            raise _Stop((engine_kwargs, "LLM", vllm_env(dict(os.environ))))

        instance = self.cls.__new__(self.cls)
        with _patched([(vllm, "AsyncEngineArgs", stop_engine_args), (vllm, "LLM", stop_llm)]):
            result = self.cls.__init__(instance, *args, **kwargs)
            if inspect.isawaitable(result):
                asyncio.run(result)
        raise JudgeError(f"{self.cls.__name__}.__init__ built no vLLM engine")


@contextlib.contextmanager
def _patched(patches: list):
    saved = [(target, name, getattr(target, name, None)) for target, name, _ in patches]
    for target, name, value in patches:
        setattr(target, name, value)
    try:
        yield
    finally:
        for target, name, value in reversed(saved):
            setattr(target, name, value)


def _flash_attn_stand_in() -> None:
    """`openrlhf/models/ring_attn_utils.py` (ring attention in training) imports flash-attn's
    padding helpers and `all_gather` at module level; flash-attn is CUDA kernels only. Modules with
    those names stand in, each function refusing to run."""
    import importlib.machinery

    def module(name: str, functions: tuple[str, ...] = ()) -> None:
        if name in sys.modules:
            return
        made = types.ModuleType(name)
        made.__spec__ = importlib.machinery.ModuleSpec(name, None)
        made.__path__ = []
        for function in functions:

            def refuse(*args, _name=function, **kwargs):
                raise RuntimeError(f"not judged: flash_attn {_name}")

            setattr(made, function, refuse)
        sys.modules[name] = made

    module("flash_attn")
    module("flash_attn.bert_padding", ("index_first_axis", "pad_input", "rearrange", "unpad_input"))
    module("flash_attn.utils")
    module("flash_attn.utils.distributed", ("all_gather",))


def _ray_for_vllm() -> None:
    """vLLM looked for Ray when the judge imported it, before Ray's folder was on the path; an
    engine with `distributed_executor_backend="ray"` (OpenRLHF's with tensor parallelism) asks
    whether it is installed (`ParallelConfig`: `ray_utils.assert_ray_available()`). Tell it what
    is now importable."""
    import ray
    from ray.util import placement_group_table
    from ray.util.placement_group import PlacementGroup
    from vllm.v1.executor import ray_utils

    if ray_utils.ray is None:
        ray_utils.ray, ray_utils.ray_import_err = ray, None
        ray_utils.placement_group_table, ray_utils.PlacementGroup = placement_group_table, PlacementGroup
