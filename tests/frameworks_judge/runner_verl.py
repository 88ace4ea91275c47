"""verl 0.9.1: `python -m verl.trainer.main_ppo ARGV` up to the vLLM server's command line and the
requests its agent loop sends (judge virtualenv only).

Real (verl's wheel, unmodified): Hydra's compose of the packaged `ppo_trainer` (or the named
configuration) with the overrides, `auto_set_device`, `validate_config` (main_ppo.main),
`OmegaConf.resolve` (TaskRunner.run), `get_ppo_ray_runtime_env` (the environment verl gives its
Ray actors), `vLLMHttpServer.__init__` (which turns the rollout section into `RolloutConfig`) and
`launch_server` up to `build_cli_args_from_config`, whose words are the launch; for requests,
`AgentLoopWorker.generate_sequences` (rollout and validation sampling) and
`vLLMHttpServer.generate` up to the `SamplingParams` it hands the engine.

Replaced: the model download (`verl.utils.fs.copy_to_local`, which `HFModelConfig` calls for the
model and tokenizer paths, returns vllm_judge's tiny local model for that name, with a
512-token tokenizer: `HFModelConfig` itself runs); Ray's runtime context (job id, node address: no cluster
runs); `verl.utils.vllm.patch` (weight-loader patches for MoE model classes: importing it
imports vLLM's Triton model kernels, absent on CPU; nothing in it touches engine arguments).
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import types
from pathlib import Path

from judge_support import FrameworkError, JudgeError, Launch, stand_in_model, stderr_text, vllm_env


class _Stop(BaseException):
    def __init__(self, value) -> None:
        self.value = value


def _install(frameworks: Path, release: str) -> list[str]:
    folders = [str(frameworks / "common"), str(frameworks / f"verl-{release}")]
    for path in reversed(folders):
        if path not in sys.path:
            sys.path.insert(0, path)
    patch = types.ModuleType("verl.utils.vllm.patch")

    def patch_vllm_moe_model_weight_loader(model):
        raise RuntimeError("not judged: model weight loading")

    patch.patch_vllm_moe_model_weight_loader = patch_vllm_moe_model_weight_loader
    sys.modules["verl.utils.vllm.patch"] = patch
    _fp8_stand_in()
    return folders[1:]


def _fp8_stand_in() -> None:
    """verl 0.7.1 and 0.8.0 import `verl.utils.vllm.vllm_fp8_utils` from the server module; it
    imports vLLM's fused-MoE and linear layers (Triton kernels, absent on CPU) and raises
    ImportError. Its three functions patch and load FP8 weights (called for an FP8 model only,
    at weight loading): a module with them, each refusing to run, stands in."""
    try:
        import verl.utils.vllm.vllm_fp8_utils  # noqa: F401
    except ImportError:
        fp8 = types.ModuleType("verl.utils.vllm.vllm_fp8_utils")
        for name in ("apply_vllm_fp8_patches", "is_fp8_model", "load_quanted_weights"):

            def refuse(*args, _name=name, **kwargs):
                raise RuntimeError(f"not judged: FP8 weights ({_name})")

            setattr(fp8, name, refuse)
        sys.modules[fp8.__name__] = fp8


class Runner:
    def __init__(self, frameworks: Path, release: str) -> None:
        if not (frameworks / f"verl-{release}" / "verl").is_dir():
            raise JudgeError(f"verl {release} is not installed (scripts/setup-framework-judges.sh)")
        self.folders = _install(frameworks, release)
        import ray
        import ray.util
        import vllm_judge
        from verl.trainer import main_ppo  # noqa: F401 - checks the entry point imports
        from verl.workers.config import model as model_config
        from verl.workers.rollout.vllm_rollout import vllm_async_server

        runtime = types.SimpleNamespace(get_job_id=lambda: "01000000", get_node_id=lambda: "node", get_accelerator_ids=lambda: {})
        ray.get_runtime_context = lambda: runtime
        ray.util.get_node_ip_address = lambda: "127.0.0.1"
        model_config.copy_to_local = lambda path, **kwargs: stand_in_model(vllm_judge, path)
        self.server_module = vllm_async_server
        self.config_dir = Path(vllm_async_server.__file__).resolve().parents[3] / "trainer" / "config"

    # -- configuration -------------------------------------------------------------------

    def compose(self, case: dict):
        import os

        from hydra import compose, initialize_config_dir
        from hydra.core.global_hydra import GlobalHydra

        overrides, config_dir, config_name = _hydra_words(case.get("argv") or [])
        config_dir = case.get("config_dir") or config_dir or str(self.config_dir)
        config_name = case.get("config_name") or config_name or "ppo_trainer"
        GlobalHydra.instance().clear()
        # Packaged experimental configurations name `file://verl/trainer/config` in their search
        # path: relative to verl's root, where their entry points are started.
        os.chdir(self.config_dir.parents[2])
        try:
            with initialize_config_dir(config_dir=str(Path(config_dir).resolve()), version_base=None):
                config = compose(config_name=config_name, overrides=overrides)
        except Exception as error:
            raise FrameworkError.from_exception(error) from None
        finally:
            GlobalHydra.instance().clear()
        return _overridden(config, case.get("overrides") or [])

    def launch(self, case: dict) -> Launch:
        import os

        from omegaconf import OmegaConf
        from verl.trainer.constants_ppo import get_ppo_ray_runtime_env
        from verl.trainer.ppo.utils import need_critic, need_reference_policy
        from verl.utils.config import validate_config
        from verl.utils.device import auto_set_device

        env = dict(case.get("env") or {})
        os.environ.update(env)
        config = self.compose(case)
        try:
            auto_set_device(config)
            validate_config(config=config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config))
            OmegaConf.resolve(config)
        except Exception as error:
            raise FrameworkError.from_exception(error) from None
        rollout = config.actor_rollout_ref.rollout
        if rollout.name != "vllm":
            raise JudgeError(f"actor_rollout_ref.rollout.name is {rollout.name!r}: not a vLLM launch")
        # 0.9 reads the configuration; 0.7.1 and 0.8.0 take no argument
        takes_config = bool(inspect.signature(get_ppo_ray_runtime_env).parameters)
        runtime_env = (get_ppo_ray_runtime_env(config) if takes_config else get_ppo_ray_runtime_env()).get("env_vars", {})
        launch_env = vllm_env({**env, **runtime_env})
        server = self._server(rollout, config.actor_rollout_ref.model)
        launch = Launch(argv=self._argv(server), env=launch_env)
        launch.requests = self._requests(config, server)
        return launch

    # -- the server --------------------------------------------------------------------------

    def _server(self, rollout, model):
        module = self.server_module

        try:
            return module.vLLMHttpServer(
                config=rollout,
                model_config=model,
                rollout_mode=module.RolloutMode.HYBRID if hasattr(module.RolloutMode, "HYBRID") else list(module.RolloutMode)[0],
                workers=[],
                replica_rank=0,
                node_rank=0,
                gpus_per_node=8,
                nnodes=1,
                cuda_visible_devices="0,1,2,3,4,5,6,7",
            )
        except Exception as error:
            raise FrameworkError.from_exception(error) from None

    def _argv(self, server) -> list[str]:
        module = self.server_module
        real = module.build_cli_args_from_config

        def recording(config):
            raise _Stop(real(config))

        module.build_cli_args_from_config = recording
        try:
            with stderr_text() as text:
                asyncio.run(server.launch_server())
        except _Stop as stop:
            return [str(server.model_config.local_path), *stop.value]
        except (Exception, SystemExit) as error:
            raise FrameworkError.from_exception(error, text.getvalue()) from None
        finally:
            module.build_cli_args_from_config = real
        raise JudgeError("launch_server returned without building the vLLM command line")

    # -- requests ------------------------------------------------------------------------------

    def _requests(self, config, server) -> list[tuple[str, object]]:
        requests = []
        # RayPPOTrainer.fit validates before training when `trainer.val_before_train` (default
        # true) and during it when `trainer.test_freq > 0` (0.9.1 `ray_trainer.py:1438`, `:1727`;
        # 0.8.0 `:1393`, `:1686`; 0.7.1 `:1258`, `:1544`; the experimental trainers alike, 0.9.1
        # `fully_async_trainer.py:812-823`, `one_step_off_policy/ray_trainer.py:290`): otherwise none.
        trainer = config.trainer
        validates = bool(trainer.get("val_before_train", True)) or (trainer.get("test_freq", -1) or -1) > 0
        for name, validate in (("rollout", False), ("validation", True))[: 2 if validates else 1]:
            try:
                params = self._sampling_dict(config, validate)
                requests.append((name, self._sampling_params(server, params)))
            except FrameworkError as error:
                requests.append((name, {"framework_error": error.message}))
        return requests

    def _sampling_dict(self, config, validate: bool) -> dict:
        from verl.experimental.agent_loop.agent_loop import AgentLoopWorker

        async def capture(sampling_params, *args, **kwargs):
            raise _Stop(dict(sampling_params))

        worker = types.SimpleNamespace(rollout_config=config.actor_rollout_ref.rollout, _run_agent_loop=capture)
        batch = _Batch(validate)
        try:
            asyncio.run(AgentLoopWorker.generate_sequences(worker, batch))
        except _Stop as stop:
            return stop.value
        except Exception as error:
            raise FrameworkError.from_exception(error) from None
        raise JudgeError("generate_sequences sent no request")

    def _sampling_params(self, server, params: dict):
        class Engine:
            def generate(self, prompt, sampling_params, **kwargs):
                raise _Stop(sampling_params)

            async def list_loras(self):
                """A LoRA rollout asks which adapters are loaded (for the request's LoRA, not
                its sampling parameters): none yet, as before the first weight sync."""
                return set()

        async def admitted(request_id):
            return None

        server.engine = Engine()
        server._park_until_admitted = admitted
        try:
            asyncio.run(server.generate(prompt_ids=[1, 2, 3], sampling_params=dict(params), request_id="judge"))
        except _Stop as stop:
            return stop.value
        except Exception as error:
            raise FrameworkError.from_exception(error) from None
        raise JudgeError("generate returned without a request")


def _overridden(config, settings: list):
    """An override mapping (dotted key, YAML value) applied as its command-line words would be:
    a key the configuration has is set, another is added (Hydra's `+key=value`)."""
    from omegaconf import OmegaConf, open_dict

    try:
        with open_dict(config):
            for key, value in settings:
                OmegaConf.update(config, key, value, merge=False, force_add=True)
    except Exception as error:
        raise FrameworkError.from_exception(error) from None
    return config


class _Batch:
    """A one-prompt DataProto as the trainer hands it to the agent loop."""

    def __init__(self, validate: bool) -> None:
        import numpy as np

        self.meta_info = {"validate": validate, "global_steps": 1}
        self.non_tensor_batch = {"index": np.arange(1)}

    def __len__(self) -> int:
        return 1


def _hydra_words(argv: list[str]) -> tuple[list[str], str | None, str | None]:
    """Hydra's own options (`--config-path`, `--config-name`, `-cp`, `-cn`) apart from the overrides."""
    overrides, config_dir, config_name = [], None, None
    words = iter(argv)
    for word in words:
        for long, short in (("--config-path", "-cp"), ("--config-name", "-cn")):
            if word in (long, short):
                value = next(words, None)
            elif word.startswith((long + "=", short + "=")):
                value = word.split("=", 1)[1]
            else:
                continue
            if long == "--config-path":
                config_dir = value
            else:
                config_name = value
            break
        else:
            overrides.append(word)
    return overrides, config_dir, config_name
