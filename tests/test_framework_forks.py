"""The tree is the framework: where verl's own source is in the checked tree (a fork), its
defaults decide the launches that run it, not the built-in edition's, and the message says so."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

ROLLOUT = "verl/trainer/config/rollout/rollout.yaml"
# verl 0.9.1's rollout.yaml, the keys replay cares about (the real file has 500 lines of them).
VERL_ROLLOUT = """\
name: ???
temperature: 1.0
top_k: -1
tensor_model_parallel_size: 2
logprobs_mode: processed_logprobs
val_kwargs:
  top_k: -1
  temperature: 0
engine_kwargs:
  vllm: {}
"""
MASKED = """\
#!/bin/bash
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.top_k=20 \\
    actor_rollout_ref.rollout.val_kwargs.top_k=20 \\
    actor_rollout_ref.rollout.val_kwargs.temperature=1.0 \\
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True
"""


def findings(tree: Path, *extra: str) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--isolated", "--output-format", "json", "--target-vllm", "0.34.0", *extra, str(tree)])
    return json.loads(out.getvalue())


def fork(tmp_path: Path, rollout: str | None, script: str = MASKED) -> Path:
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "run_qwen3_8b.sh").write_text(script)
    if rollout is not None:
        (tmp_path / ROLLOUT).parent.mkdir(parents=True)
        (tmp_path / ROLLOUT).write_text(rollout)
    return tmp_path


def at(item: dict, tree: Path) -> tuple[str, int]:
    return Path(item["filename"]).resolve().relative_to(tree.resolve()).as_posix(), item["location"]["row"]


def codes(found: list[dict]) -> list[str]:
    return sorted(item["code"] for item in found)


def test_the_forks_logprobs_mode_default_decides(tmp_path: Path) -> None:
    tree = fork(tmp_path, VERL_ROLLOUT.replace("logprobs_mode: processed_logprobs", "logprobs_mode: raw_logprobs"))
    found = findings(tree, "--no-cache")
    assert codes(found) == ["RPL003"]
    assert "the forked verl's default actor_rollout_ref.rollout.logprobs_mode=raw_logprobs" in found[0]["message"]
    assert at(found[0], tree) == (ROLLOUT, line_of((tree / ROLLOUT).read_text(), "logprobs_mode:"))  # the line that decides


def test_without_a_fork_the_editions_defaults_decide(tmp_path: Path) -> None:
    assert findings(fork(tmp_path, None), "--no-cache") == []  # verl 0.9.1's default: processed_logprobs


def test_a_fork_that_drops_the_default_leaves_vllms(tmp_path: Path) -> None:
    """`logprobs_mode: null`: verl drops None values, and vLLM's own default is raw_logprobs."""
    tree = fork(tmp_path, VERL_ROLLOUT.replace("logprobs_mode: processed_logprobs", "logprobs_mode: null"))
    assert codes(findings(tree, "--no-cache")) == ["RPL003"]


def test_the_forks_request_defaults_replace_verls(tmp_path: Path) -> None:
    """verl's own defaults (top_k -1, validation at temperature 0) fail every replay request; a
    fork that bounds them is clean with a command line that does not set them."""
    script = "\n".join(line for line in MASKED.splitlines() if "top_k" not in line and "temperature" not in line) + "\n"
    plain, forked = tmp_path / "plain", tmp_path / "forked"
    plain.mkdir(), forked.mkdir()
    assert codes(findings(fork(plain, None, script), "--no-cache")) == ["RPL101", "RPL102", "RPL102"]
    bounded = VERL_ROLLOUT.replace("top_k: -1", "top_k: 20").replace("temperature: 0", "temperature: 1.0")
    assert findings(fork(forked, bounded, script), "--no-cache") == []


def test_the_forks_engine_arguments_reach_the_engine(tmp_path: Path) -> None:
    rollout = VERL_ROLLOUT.replace("  vllm: {}", "  vllm:\n    logits_processors: [my_fork.ProcessorThatClamps]")
    found = findings(fork(tmp_path, rollout), "--no-cache")
    assert codes(found) == ["RPL001"]
    assert "the forked verl" in found[0]["message"]
    assert at(found[0], tmp_path) == (ROLLOUT, line_of(rollout, "logits_processors:"))


@pytest.mark.parametrize("rollout", ["logprobs_mode: ${oc.env:MODE}\n", "logprobs_mode: [unclosed\n", "- a list\n"])
def test_a_fork_default_not_read_here_is_no_finding(tmp_path: Path, rollout: str) -> None:
    """An interpolation is not resolved here (the launch is open on it); a rollout.yaml that is
    not a mapping leaves the edition's defaults, as for an installed verl."""
    assert findings(fork(tmp_path, rollout), "--no-cache") == []


def test_a_change_in_the_forks_config_re_judges_its_scripts(tmp_path: Path) -> None:
    tree = fork(tmp_path, VERL_ROLLOUT)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    assert findings(tree, *cache) == []
    (tree / ROLLOUT).write_text(VERL_ROLLOUT.replace("logprobs_mode: processed_logprobs", "logprobs_mode: raw_logprobs"))
    assert codes(findings(tree, *cache)) == ["RPL003"]


def test_a_fork_that_turns_the_mask_on_judges_scripts_that_never_name_it(tmp_path: Path) -> None:
    """The fork's own engine arguments turn replay on for every launch: verl's request defaults
    (top_k -1, validation at temperature 0) then fail, in a script that never names the mask; each
    message names the line of the fork's rollout.yaml that writes the default."""
    rollout = VERL_ROLLOUT.replace("  vllm: {}", "  vllm:\n    return_sampling_mask: true")
    script = "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=m actor_rollout_ref.rollout.name=vllm\n"
    found = findings(fork(tmp_path, rollout, script), "--no-cache")
    assert codes(found) == ["RPL101", "RPL102", "RPL102"]
    assert sorted(item["message"].split("`")[1] for item in found) == [
        "actor_rollout_ref.rollout.top_k=-1 (verl's default, verl/trainer/config/rollout/rollout.yaml:3)",
        "rollout.val_kwargs.temperature=0 (verl's default, verl/trainer/config/rollout/rollout.yaml:8)",
        "rollout.val_kwargs.top_k=-1 (verl's default, verl/trainer/config/rollout/rollout.yaml:7)",
    ]
    (tmp_path / ROLLOUT).write_text(VERL_ROLLOUT)
    assert findings(tmp_path, "--no-cache") == []


def test_a_trainer_config_in_a_fork_takes_the_forks_defaults(tmp_path: Path) -> None:
    """A verl trainer configuration in the fork's tree is composed over the fork's own rollout
    defaults, as a command line is."""
    config = (
        "actor_rollout_ref:\n  model: {path: Qwen/Qwen3-8B}\n  rollout:\n    name: vllm\n    top_k: 20\n"
        "    engine_kwargs: {vllm: {return_sampling_mask: true}}\n    val_kwargs: {top_k: 20, temperature: 1.0}\n"
    )
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "trainer.yaml").write_text(config)
    assert findings(tmp_path, "--no-cache") == []  # verl 0.9.1's processed_logprobs
    (tmp_path / ROLLOUT).parent.mkdir(parents=True)
    (tmp_path / ROLLOUT).write_text(VERL_ROLLOUT.replace("logprobs_mode: processed_logprobs", "logprobs_mode: raw_logprobs"))
    found = findings(tmp_path, "--no-cache")
    assert codes(found) == ["RPL003"] and "the forked verl's default" in found[0]["message"]


# -- the fork's server: the engine arguments verl's own code builds --------------------------------

SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
# verl 0.9.1's `vLLMHttpServer.launch_server`, the statements that build vLLM's arguments (the
# real method has 200 lines around them; `tests/frameworks_judge/forks.py` edits the real file).
VERL_SERVER = """\
class vLLMHttpServer:
    async def launch_server(self, master_address: str = None, master_port: int = None):
        engine_kwargs = self.config.get("engine_kwargs", {}).get(self._get_engine_kwargs_key(), {}) or {}
        engine_kwargs = {key: val for key, val in engine_kwargs.items() if val is not None}
        compilation_config = engine_kwargs.pop("compilation_config", None) or {}
        args = {
            "dtype": self.config.dtype,
            "skip_tokenizer_init": False,
            "distributed_executor_backend": "mp",
            "logprobs_mode": self.config.logprobs_mode,
            "tensor_parallel_size": self.config.tensor_model_parallel_size,
            "compilation_config": compilation_config,
            **engine_kwargs,
        }
        if self._should_profile():
            profiler_args = build_vllm_profiler_args(self.profiler_controller.config)
            if use_cli_args:
                args.update(profiler_args)
        if self.config.mtp is not None and self.config.mtp.enable and self.config.mtp.enable_rollout:
            args["speculative_config"] = build_mtp_speculative_config(
                self.config.mtp.method, self.config.mtp.num_speculative_tokens, args.get("speculative_config")
            )
        args.update({"enable_expert_parallel": self.config.expert_parallel_size > 1})
        if lora_rank > 0:
            lora_args = {"enable_lora": True, "max_loras": 1}
            args.update(lora_args)
        server_args = ["serve", self.model_config.local_path] + build_cli_args_from_config(args)
"""
FIXED_REQUESTS = (
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=m actor_rollout_ref.rollout.name=vllm "
    "actor_rollout_ref.rollout.top_k=20 actor_rollout_ref.rollout.val_kwargs.top_k=20 "
    "actor_rollout_ref.rollout.val_kwargs.temperature=1.0 {}\n"
)


def server_fork(tmp_path: Path, server: str, script: str) -> Path:
    fork(tmp_path, VERL_ROLLOUT, script)
    (tmp_path / SERVER).parent.mkdir(parents=True)
    (tmp_path / SERVER).write_text(server)
    return tmp_path


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_unedited_server_is_verls_own(tmp_path: Path) -> None:
    clean = FIXED_REQUESTS.format("+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True")
    assert findings(server_fork(tmp_path, VERL_SERVER, clean), "--no-cache") == []
    plain = "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=m actor_rollout_ref.rollout.name=vllm\n"
    (tmp_path / "examples" / "run_qwen3_8b.sh").write_text(plain)
    assert findings(tmp_path, "--no-cache") == []  # no mask: nothing to say


def test_a_server_that_adds_the_mask_turns_replay_on_for_every_launch(tmp_path: Path) -> None:
    """After `**engine_kwargs` the fork's key wins; verl's request defaults then fail."""
    server = VERL_SERVER.replace(
        "            **engine_kwargs,\n", '            **engine_kwargs,\n            "return_sampling_mask": True,\n'
    )
    plain = "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=m actor_rollout_ref.rollout.name=vllm\n"
    found = findings(server_fork(tmp_path, server, plain), "--no-cache")
    assert codes(found) == ["RPL101", "RPL102", "RPL102"]
    (tmp_path / "examples" / "run_qwen3_8b.sh").write_text(FIXED_REQUESTS.format(""))
    assert findings(tmp_path, "--no-cache") == []


def test_a_server_value_wins_over_the_rollout_config(tmp_path: Path) -> None:
    """`"logprobs_mode": "raw_logprobs"` in place of `self.config.logprobs_mode`: the command line's
    `rollout.logprobs_mode` no longer reaches vLLM; the message names the fork's line."""
    server = VERL_SERVER.replace('"logprobs_mode": self.config.logprobs_mode', '"logprobs_mode": "raw_logprobs"')
    script = FIXED_REQUESTS.format(
        "actor_rollout_ref.rollout.logprobs_mode=processed_logprobs +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True"
    )
    found = findings(server_fork(tmp_path, server, script), "--no-cache")
    assert codes(found) == ["RPL003"]
    assert f"the forked verl's vllm_async_server.py:{line_of(server, 'raw_logprobs')}: logprobs_mode='raw_logprobs'" in found[0]["message"]


def test_a_server_that_no_longer_passes_logprobs_mode_leaves_vllms_default(tmp_path: Path) -> None:
    server = VERL_SERVER.replace('            "logprobs_mode": self.config.logprobs_mode,\n', "")
    script = FIXED_REQUESTS.format("+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True")
    assert codes(findings(server_fork(tmp_path, server, script), "--no-cache")) == ["RPL003"]  # vLLM's raw_logprobs


def test_a_server_key_above_the_spread_gives_way_to_the_command_line(tmp_path: Path) -> None:
    server = VERL_SERVER.replace(
        '"skip_tokenizer_init": False,', '"skip_tokenizer_init": False,\n            "logprobs_mode": "raw_logprobs",'
    )
    server = server.replace('            "logprobs_mode": self.config.logprobs_mode,\n', "")
    masked = "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True"
    script = FIXED_REQUESTS.format(f"{masked} +actor_rollout_ref.rollout.engine_kwargs.vllm.logprobs_mode=processed_logprobs")
    assert findings(server_fork(tmp_path, server, script), "--no-cache") == []
    (tmp_path / "examples" / "run_qwen3_8b.sh").write_text(FIXED_REQUESTS.format(masked))
    assert codes(findings(tmp_path, "--no-cache")) == ["RPL003"]


def test_a_later_write_and_a_pop_in_the_server(tmp_path: Path) -> None:
    """`args["k"] = v` after the dict wins over the command line; `args.pop(k)` drops the user's."""
    server = VERL_SERVER.replace(
        "        server_args =",
        '        args["return_sampling_mask"] = True\n        args.pop("logits_processors", None)\n        server_args =',
    )
    script = FIXED_REQUESTS.format(
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=False "
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.logits_processors=[my.Processor]"
    )
    assert findings(server_fork(tmp_path, server, script), "--no-cache") == []
    (tmp_path / SERVER).write_text(server.replace('        args.pop("logits_processors", None)\n', ""))
    found = findings(tmp_path, "--no-cache")
    assert codes(found) == ["RPL001"] and "the forked verl's vllm_async_server.py:" in found[0]["message"]


@pytest.mark.parametrize(
    "edit",
    [
        '        if self.config.get("replay"):\n            args["return_sampling_mask"] = True\n',  # a condition not decided here
        '        args["return_sampling_mask"] = self.config.get("replay", False)\n',  # a value of the run
        "        args.update(self.replay_args())\n",  # keys not read here
    ],
)
def test_a_server_write_not_read_here_keeps_the_launch_open(tmp_path: Path, edit: str) -> None:
    """verl's request defaults fail only if the mask is on: with the fork's mask not known, nothing is said."""
    server = VERL_SERVER.replace("        server_args =", edit + "        server_args =")
    plain = "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=m actor_rollout_ref.rollout.name=vllm\n"
    assert findings(server_fork(tmp_path, server, plain), "--no-cache") == []


@pytest.mark.parametrize("server", ["def launch_server(:\n", "class A:\n    def launch_server(self):\n        args = build()\n", "\x00"])
def test_a_server_not_read_here_leaves_the_editions_code(tmp_path: Path, server: str) -> None:
    script = FIXED_REQUESTS.format("+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True")
    assert findings(server_fork(tmp_path, server, script), "--no-cache") == []


def test_a_change_in_the_forks_server_re_judges_its_scripts(tmp_path: Path) -> None:
    script = FIXED_REQUESTS.format("+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True")
    tree = server_fork(tmp_path, VERL_SERVER, script)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    assert findings(tree, *cache) == []
    (tree / SERVER).write_text(VERL_SERVER.replace('"logprobs_mode": self.config.logprobs_mode', '"logprobs_mode": "raw_logprobs"'))
    assert codes(findings(tree, *cache)) == ["RPL003"]


# -- a SkyRL fork: the engine arguments its build_vllm_cli_args builds -------------------------------

SKYRL_ENGINE_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
# skyrl 0.4.0's `build_vllm_cli_args`, the statements that build vLLM's arguments.
SKYRL_BUILD = """\
def build_vllm_cli_args(cfg: SkyRLTrainConfig) -> Namespace:
    parser = FlexibleArgumentParser()
    parser = AsyncEngineArgs.add_cli_args(parser)
    args: Namespace = parser.parse_args(args=[])
    ie_cfg = cfg.generator.inference_engine
    overrides = dict(
        model=cfg.trainer.policy.model.path,
        tensor_parallel_size=ie_cfg.tensor_parallel_size,
        dtype=ie_cfg.model_dtype,
        generation_config="vllm",
        trust_remote_code=True,
    )
    if ie_cfg.enable_return_sample_support_set:
        overrides["max_logprobs"] = cfg.generator.sampling_params.top_k
        overrides["logprobs_mode"] = "processed_logprobs"
    for key, value in overrides.items():
        setattr(args, key, value)
    engine_kwargs = get_config_as_dict(ie_cfg.engine_init_kwargs)
    for key, value in engine_kwargs.items():
        setattr(args, key, value)
    return args
"""
SKYRL_SERVE = (
    "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.serve trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct "
    "generator.inference_engine.tensor_parallel_size=2 {}\n"
)


def tree_of(tmp_path: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def skyrl_fork(tmp_path: Path, build: str, script: str) -> Path:
    return tree_of(tmp_path, {"scripts/serve.sh": script, SKYRL_ENGINE_ARGS: build, "requirements.txt": "skyrl==0.4.0\n"})


def test_a_skyrl_fork_that_adds_the_mask(tmp_path: Path) -> None:
    build = SKYRL_BUILD.replace(
        "        trust_remote_code=True,\n", "        trust_remote_code=True,\n        return_sampling_mask=True,\n"
    )
    found = findings(skyrl_fork(tmp_path, build, SKYRL_SERVE.format("")), "--no-cache")
    assert codes(found) == ["RPL003"]
    assert f"the forked SkyRL's utils.py:{line_of(build, 'return_sampling_mask')}: return_sampling_mask=True" in found[0]["message"]
    fixed = SKYRL_SERVE.format("generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs")
    (tmp_path / "scripts" / "serve.sh").write_text(fixed)  # engine_init_kwargs are set last: they win
    assert findings(tmp_path, "--no-cache") == []


def test_a_skyrl_fork_that_sets_the_logprobs_mode_makes_the_mask_pass(tmp_path: Path) -> None:
    build = SKYRL_BUILD.replace(
        "        trust_remote_code=True,\n", '        trust_remote_code=True,\n        logprobs_mode="processed_logprobs",\n'
    )
    masked = SKYRL_SERVE.format("generator.inference_engine.engine_init_kwargs.return_sampling_mask=true")
    assert findings(skyrl_fork(tmp_path, build, masked), "--no-cache") == []
    (tmp_path / SKYRL_ENGINE_ARGS).write_text(SKYRL_BUILD)  # SkyRL's own: vLLM's raw_logprobs
    assert codes(findings(tmp_path, "--no-cache")) == ["RPL003"]


def test_a_skyrl_fork_whose_mask_depends_on_its_config_stays_open(tmp_path: Path) -> None:
    build = SKYRL_BUILD.replace(
        "    for key, value in overrides",
        '    if ie_cfg.replay:\n        overrides["return_sampling_mask"] = True\n    for key, value in overrides',
    )
    assert findings(skyrl_fork(tmp_path, build, SKYRL_SERVE.format("")), "--no-cache") == []


# -- an OpenRLHF fork: the engine dict its create_vllm_engines builds --------------------------------

OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
# openrlhf 0.11.2's `create_vllm_engines`, the statements that build the engine dict (one per engine).
OPENRLHF_CREATE = """\
def create_vllm_engines(num_engines, tensor_parallel_size, pretrain, seed, enforce_eager, logprobs_mode=None):
    vllm_engines = []
    for i in range(num_engines):
        actor_kwargs = {
            "model": pretrain,
            "enforce_eager": enforce_eager,
            "worker_extension_cls": "openrlhf.trainer.ray.vllm_worker_wrap.WorkerWrap",
            "tensor_parallel_size": tensor_parallel_size,
            "seed": seed + i,
            "dtype": "bfloat16",
            "num_gpus": 1,
        }
        if logprobs_mode:
            actor_kwargs["logprobs_mode"] = logprobs_mode
            actor_kwargs["max_logprobs"] = 1
        vllm_engines.append(RolloutRayActor.options(num_gpus=1).remote(**actor_kwargs))
    return vllm_engines
"""
TRAIN = (
    "ray job submit --address=http://127.0.0.1:8265 -- python3 -m openrlhf.cli.train_ppo_ray "
    "--actor.model_name_or_path OpenRLHF/Llama-3-8b-sft-mixture --vllm.num_engines 2 --vllm.tensor_parallel_size 2 {}\n"
)
MASKED_DICT = '            "num_gpus": 1,\n            "return_sampling_mask": True,\n'


def openrlhf_fork(tmp_path: Path, create: str, script: str) -> Path:
    return tree_of(tmp_path, {"examples/train_ppo.sh": script, OPENRLHF_ENGINES: create, "requirements.txt": "openrlhf==0.11.2\n"})


def script_findings(tree: Path) -> list[dict]:
    """The findings of the fork's tree: the launch script's sit on the fork's line that decides
    (the fork's module is checked as Python on its own too; the same finding there is one)."""
    return findings(tree, "--no-cache")


def test_an_openrlhf_fork_that_adds_the_mask(tmp_path: Path) -> None:
    """The mask in the dict: vLLM's raw_logprobs without the correction; with it, OpenRLHF
    sends processed_logprobs, which replay needs."""
    create = OPENRLHF_CREATE.replace('            "num_gpus": 1,\n', MASKED_DICT)
    found = script_findings(openrlhf_fork(tmp_path, create, TRAIN.format("")))
    assert codes(found) == ["RPL003"]
    assert f"the forked OpenRLHF's vllm_engine.py:{line_of(create, 'return_sampling_mask')}" in found[0]["message"]
    (tmp_path / "examples" / "train_ppo.sh").write_text(TRAIN.format("--algo.advantage.is_correction_level token"))
    assert script_findings(tmp_path) == []


def test_an_openrlhf_fork_that_forces_raw_logprobs_after_the_correction(tmp_path: Path) -> None:
    create = OPENRLHF_CREATE.replace(
        "        vllm_engines.append",
        '        actor_kwargs["return_sampling_mask"] = True\n        actor_kwargs["logprobs_mode"] = "raw_logprobs"\n        vllm_engines.append',
    )
    found = script_findings(openrlhf_fork(tmp_path, create, TRAIN.format("--algo.advantage.is_correction_level token")))
    assert codes(found) == ["RPL003"] and "raw_logprobs" in found[0]["message"]
    assert found[0]["location"]["row"] == line_of(create, '"raw_logprobs"')  # the fork's line that decides


def test_an_openrlhf_fork_whose_actor_adds_the_mask(tmp_path: Path) -> None:
    """`vllm.AsyncEngineArgs(*args, return_sampling_mask=True, **self.kwargs)` in the Ray actor."""
    actor = "class RolloutRayActor:\n    async def __init__(self, *args, **kwargs):\n        self.kwargs = kwargs\n"
    actor += "        engine_args = vllm.AsyncEngineArgs(*args, return_sampling_mask=True, **self.kwargs)\n\n\n"
    found = script_findings(openrlhf_fork(tmp_path, actor + OPENRLHF_CREATE, TRAIN.format("")))
    assert codes(found) == ["RPL003"] and "the forked OpenRLHF's vllm_engine.py:4: return_sampling_mask=True" in found[0]["message"]
    (tmp_path / "examples" / "train_ppo.sh").write_text(TRAIN.format("--algo.advantage.is_correction_level token"))
    assert script_findings(tmp_path) == []


def test_an_unedited_openrlhf_tree_says_nothing(tmp_path: Path) -> None:
    assert (
        findings(openrlhf_fork(tmp_path, OPENRLHF_CREATE, TRAIN.format("--algo.advantage.is_correction_level token")), "--no-cache") == []
    )


def test_the_parsers_refusal_comes_first_in_a_fork_too(tmp_path: Path) -> None:
    create = OPENRLHF_CREATE.replace('            "num_gpus": 1,\n', MASKED_DICT)
    found = script_findings(openrlhf_fork(tmp_path, create, TRAIN.format("--vllm.return_sampling_mask")))
    assert codes(found) == ["RPL204"]


SKYRL_CONFIG = "skyrl/train/config/config.py"
# skyrl 0.4.0's `SamplingParams` config dataclass, the fields a request takes.
SKYRL_SAMPLING = """\
@dataclass
class SamplingParams(BaseConfig):
    max_generate_length: int = 1024
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1
    logprobs: Optional[int] = 1
"""
MAIN_BASE = (
    "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct "
    "generator.inference_engine.engine_init_kwargs.return_sampling_mask=true "
    "generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs {}\n"
)


def test_a_skyrl_forks_sampling_defaults_are_its_requests(tmp_path: Path) -> None:
    """SkyRL's `top_k: int = -1` fails every replay request; a fork's `top_k: int = 50` does not,
    and evaluation stays greedy (`SamplingParams(temperature=0.0, ...)` when not configured)."""
    plain = tree_of(tmp_path / "plain", {"scripts/train.sh": MAIN_BASE.format(""), "requirements.txt": "skyrl==0.4.0\n"})
    assert codes(findings(plain, "--no-cache")) == ["RPL101", "RPL102", "RPL102"]
    bounded = SKYRL_SAMPLING.replace("top_k: int = -1", "top_k: int = 50")
    forked = tree_of(
        tmp_path / "forked", {"scripts/train.sh": MAIN_BASE.format(""), SKYRL_CONFIG: bounded, "requirements.txt": "skyrl==0.4.0\n"}
    )
    found = findings(forked, "--no-cache")
    assert codes(found) == ["RPL101"] and "the forked SkyRL" in found[0]["message"]
    evaluation = "generator.eval_sampling_params.temperature=1.0"
    (forked / "scripts" / "train.sh").write_text(MAIN_BASE.format(evaluation))
    assert findings(forked, "--no-cache") == []
