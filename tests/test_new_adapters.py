"""Adapters for ROLL, OpenRLHF and open-instruct, and engine-argument mappings found by content
(docs/frameworks-research-new-adapters.md)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.engine.project import ProjectPins
from replaylint.frontends import ExtractContext, SourceFile, shell as shell_frontend, yaml as yaml_frontend
from replaylint.model import Launch

# -- ROLL -----------------------------------------------------------------------------------------

ROLL_CONFIG = """\
hydra:
  run:
    dir: .
  output_subdir: null

exp_name: "qwen2.5-7B-rlvr-config"
seed: 42
response_length: 4096
system_envs:
  USE_MODELSCOPE: '1'
{top_env}
actor_train:
  model_args:
    dtype: bf16
  strategy_args:
    strategy_name: megatron_train
    strategy_config:
      tensor_model_parallel_size: 1
  device_mapping: list(range(0,16))

actor_infer:
  model_args:
    model_name_or_path: Qwen/Qwen2.5-7B
    dtype: bf16
  generating_args:
    max_new_tokens: ${{response_length}}
    top_p: 0.99
{generating}    num_beams: 1
    num_return_sequences: 8
  strategy_args:
    strategy_name: vllm
    strategy_config:
      gpu_memory_utilization: 0.8
      block_size: 16
      max_model_len: 8000
{strategy}  device_mapping: list(range(0,12))
  infer_batch_size: 1
"""


def roll(strategy: str = "", generating: str = "    top_k: 100\n    temperature: 0.99\n", top_env: str = "") -> str:
    return ROLL_CONFIG.format(strategy=strategy, generating=generating, top_env=top_env)


def codes(check, files: dict[str, str], name: str, release: str | None = "0.33.0") -> list[str]:
    return [finding.code for finding in check(files, release=release)[name].findings]


def test_roll_mask_without_logprobs_mode_is_reported_at_the_users_key(check) -> None:
    files = {"examples/qwen2.5-7B-rlvr/rlvr_config.yaml": roll("      return_sampling_mask: true\n")}
    (finding,) = check(files, release="0.33.0")["examples/qwen2.5-7B-rlvr/rlvr_config.yaml"].findings
    assert finding.code == "RPL003"
    text = files["examples/qwen2.5-7B-rlvr/rlvr_config.yaml"]
    assert text[finding.span.start : finding.span.end] == "return_sampling_mask: true" and "raw_logprobs" in finding.message


def test_roll_mask_with_processed_logprobs_is_clean(check) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n")
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == []


def test_roll_speculative_and_other_mode_are_reported(check) -> None:
    config = roll(
        "      return_sampling_mask: true\n      logprobs_mode: raw_logits\n"
        "      speculative_config:\n        method: ngram\n        num_speculative_tokens: 4\n"
    )
    # 0.31: speculative decoding is refused (RPL002) and n-gram drafting falls back to Model Runner V1 (RPL004)
    assert sorted(codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml", "0.31.0")) == ["RPL002", "RPL003", "RPL004"]


def test_roll_kebab_and_popped_keys_never_reach_vllm(check) -> None:
    # AsyncEngineArgs(**kwargs) takes field names only: a kebab-case key is a TypeError, not the mask.
    config = roll("      return-sampling-mask: true\n      VLLM_USE_V1: 1\n      sleep_level: 2\n")
    (launch,) = yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext())
    assert "return_sampling_mask" not in launch.settings and "return-sampling-mask" not in launch.settings
    assert "VLLM_USE_V1" not in launch.settings and "sleep_level" not in launch.settings
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == []


def test_roll_adds_its_own_engine_defaults_and_environment() -> None:
    config = roll("      return_sampling_mask: true\n      enable_prefix_caching: false\n", top_env="  VLLM_USE_V2_MODEL_RUNNER: '0'\n")
    (launch,) = yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext())
    assert launch.value("enable_prefix_caching") is False  # the user's value wins over ROLL's True
    assert launch.value("load_format") == "dummy" and launch.value("enable_sleep_mode") is True
    assert launch.value("model") == "Qwen/Qwen2.5-7B" and launch.value("dtype") == "bfloat16"
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert launch.label.endswith("(actor_infer)")


def test_roll_runner_variable_in_system_envs_reaches_the_engine(check) -> None:
    config = roll(
        "      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n",
        top_env="  VLLM_USE_V2_MODEL_RUNNER: '0'\n",
    )
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml", "0.32.0") == ["RPL004"]


@pytest.mark.parametrize(
    ("generating", "expected"),
    [
        ("    top_k: -1\n    temperature: 0.99\n", ["RPL102"]),
        ("    top_k: 50\n    temperature: 0\n", ["RPL101"]),
        ("", []),  # ROLL's defaults: temperature 0.95, top_k 50
        ("    top_k: ${top_k}\n", []),  # an interpolation is unknown
    ],
)
def test_roll_requests_use_generating_args_and_rolls_defaults(check, generating: str, expected: list[str]) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n", generating=generating)
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == expected


def test_roll_validation_requests_go_to_actor_infer(check) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n") + (
        "validation:\n  data_args:\n    template: qwen2_5\n  generating_args:\n    top_k: 50\n    temperature: 0\n"
    )
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == ["RPL101"]


def test_roll_beam_search_never_bounds_top_k(check) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n", generating="").replace(
        "num_beams: 1", "num_beams: 4"
    )
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == ["RPL102"]


def test_roll_other_strategies_start_no_vllm() -> None:
    config = roll("      return_sampling_mask: true\n").replace("strategy_name: vllm", "strategy_name: sglang")
    assert yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext()) == []


def test_roll_reward_workers_are_engines_too(check) -> None:
    config = roll() + (
        "rewards:\n  llm_judge:\n    worker_cls: roll.pipeline.rlvr.rewards.llm_judge_reward_worker.LLMJudgeRewardWorker\n"
        "    generating_args:\n      top_k: 50\n      temperature: 0.8\n"
        "    strategy_args:\n      strategy_name: vllm\n      strategy_config:\n"
        "        gpu_memory_utilization: 0.8\n        return_sampling_mask: true\n"
    )
    launches = yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext())
    assert [launch.label.rsplit(" ", 1)[-1] for launch in launches] == ["(actor_infer)", "(rewards.llm_judge)"]
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == ["RPL003"]


def test_roll_hydra_defaults_that_may_write_the_engine_make_it_open_ended(check) -> None:
    config = "defaults:\n  - ../config/traj_envs@_here_\n\n" + roll("      return_sampling_mask: true\n")
    envs = "custom_envs:\n  SimpleSokoban:\n    env_type: sokoban\n"
    writes = "actor_infer:\n  strategy_args:\n    strategy_config:\n      logprobs_mode: processed_logprobs\n"
    files = {"examples/agentic/agentic.yaml": config, "examples/config/traj_envs.yaml": envs}
    assert codes(check, files, "examples/agentic/agentic.yaml") == ["RPL003"]
    files["examples/config/traj_envs.yaml"] = writes
    assert codes(check, files, "examples/agentic/agentic.yaml") == []
    del files["examples/config/traj_envs.yaml"]
    assert codes(check, files, "examples/agentic/agentic.yaml") == []  # not readable: unknown


# -- OpenRLHF -------------------------------------------------------------------------------------

# OpenRLHF 0.11.2's own engine file (Apache-2.0, fixtures/realworld/manifest.json), as a fork edits it.
OPENRLHF_ENGINE = (
    Path(__file__).resolve().parent.parent / "fixtures/realworld/openrlhf/openrlhf-0.11.2.data/purelib/openrlhf/trainer/ray/vllm_engine.py"
).read_text()
OPENRLHF_LOGPROBS = """        if logprobs_mode:
            actor_kwargs["logprobs_mode"] = logprobs_mode
            actor_kwargs["max_logprobs"] = 1
            assert version.parse(vllm.__version__) > version.parse(
                "0.10.0"
            ), "vLLM > 0.10.0 is required for logprobs_mode"
"""


def openrlhf(extra: str = "", logprobs: str = OPENRLHF_LOGPROBS) -> str:
    """The file with the mask (and `extra` entries) added to `actor_kwargs`, and the
    command-line-driven `logprobs_mode` block replaced by `logprobs`."""
    anchor = '            "enable_sleep_mode": vllm_enable_sleep,\n'
    assert anchor in OPENRLHF_ENGINE and OPENRLHF_LOGPROBS in OPENRLHF_ENGINE
    text = OPENRLHF_ENGINE.replace(anchor, anchor + '            "return_sampling_mask": True,\n' + extra)
    return text.replace(OPENRLHF_LOGPROBS, logprobs)


def test_openrlhf_release_file_starts_no_replay(check) -> None:
    name = "openrlhf/trainer/ray/vllm_engine.py"
    assert codes(check, {name: OPENRLHF_ENGINE}, name) == []


def test_openrlhf_mode_from_the_command_line_is_unknown(check) -> None:
    # `if logprobs_mode:` depends on --algo.advantage.is_correction_level: not judged.
    assert codes(check, {"openrlhf/trainer/ray/vllm_engine.py": openrlhf()}, "openrlhf/trainer/ray/vllm_engine.py") == []


def fixed(tmp_path, source: str) -> str:
    path = tmp_path / "vllm_engine.py"
    path.write_text(source)
    with contextlib.redirect_stdout(io.StringIO()):
        main(["check", "--no-cache", "--fix", "--target-vllm", "0.33.0", str(path)])
    return path.read_text()


def test_openrlhf_dict_without_mode_is_the_whole_configuration(check, tmp_path) -> None:
    name = "openrlhf/trainer/ray/vllm_engine.py"
    assert codes(check, {name: openrlhf(logprobs="")}, name) == ["RPL003"]
    text = fixed(tmp_path, openrlhf(logprobs=""))
    assert '"return_sampling_mask": True,\n            "logprobs_mode": "processed_logprobs",' in text


def test_openrlhf_presence_rules_and_an_explicit_mode(check) -> None:
    extra = '            "logprobs_mode": "raw_logprobs",\n            "speculative_config": {"method": "ngram", "num_speculative_tokens": 3},\n'
    found = codes(check, {"vllm_engine.py": openrlhf(extra=extra, logprobs="")}, "vllm_engine.py", "0.30.0")
    assert sorted(found) == ["RPL002", "RPL003", "RPL004"]


def test_openrlhf_keyword_form_of_older_releases(check, tmp_path) -> None:
    source = (
        "import vllm\n\n\ndef create_vllm_engines(pretrain, seed, i):\n"
        "    return LLMRayActor.options(num_gpus=1).remote(\n"
        "        model=pretrain,\n        enforce_eager=False,\n"
        '        worker_extension_cls="openrlhf.trainer.ray.vllm_worker_wrap.WorkerWrap",\n'
        "        tensor_parallel_size=2,\n        seed=seed + i,\n        bundle_indices=None,\n"
        "        num_gpus=0.2,\n        return_sampling_mask=True,\n    )\n"
    )
    name = "openrlhf/trainer/ray/vllm_engine.py"
    assert codes(check, {name: source}, name) == ["RPL003"]
    assert 'return_sampling_mask=True,\n        logprobs_mode="processed_logprobs",' in fixed(tmp_path, source)


# OpenRLHF's command line, as its README launches it (0.8.11's `train_ppo_ray` block, shortened).
OPENRLHF_RAY = """\
ray job submit --address="http://127.0.0.1:8265" \\
   --runtime-env-json='{{"working_dir": "/openrlhf"}}' \\
   -- python3 -m openrlhf.cli.train_ppo_ray \\
   --vllm_num_engines 4 \\
   --vllm_tensor_parallel_size 2 \\
   --colocate_all_models \\
   --pretrain OpenRLHF/Llama-3-8b-sft-mixture \\
   --init_kl_coef 0.01 {extra}
"""
UNRECOGNIZED = "train_ppo_ray.py: error: unrecognized arguments: "


@pytest.fixture
def check_pins(tmp_path: Path):
    """The findings of `run.sh` in a project whose requirements.txt pins `pin` (the framework's
    pin chooses the edition whose code builds the launch)."""

    def run(script: str, pin: str) -> list[tuple[str, str]]:
        (tmp_path / ".git").mkdir(exist_ok=True)
        (tmp_path / "run.sh").write_text(script)
        (tmp_path / "requirements.txt").write_text(pin + "\n")
        result = Checker(Config(), ProjectPins()).check_file(str(tmp_path / "run.sh"))
        return [(finding.code, finding.message) for finding in result.findings]

    return run


def edition_launch(script: str, release: str) -> Launch:
    """The launch of `script` as the OpenRLHF edition holding `release` builds it."""
    launch = shell_launch(script)
    assert launch.framework is not None
    (edition,) = [edition for edition in openrlhf_family().editions if release in edition.releases]
    return launch.framework.editions[edition.name]


def openrlhf_family():
    from replaylint.frameworks import openrlhf

    return openrlhf._data().family


def shell_launch(text: str) -> Launch:
    (found,) = shell_frontend.extract(SourceFile("run.sh", text), ExtractContext())
    return found


def test_openrlhf_refuses_a_replay_flag_in_its_own_words(check_pins) -> None:
    script = OPENRLHF_RAY.format(extra="--vllm_return_sampling_mask")
    ((code, message),) = check_pins(script, "openrlhf==0.8.11")
    assert code == "RPL204"
    assert message == (
        f'`--vllm_return_sampling_mask`: openrlhf: train_ppo_ray (OpenRLHF 0.8.10-0.9.0) says "{UNRECOGNIZED}--vllm_return_sampling_mask"'
    )


def test_openrlhf_refusal_lists_every_word_the_release_does_not_take(check_pins) -> None:
    # 0.11.2's parser has grouped names: every 0.8 flag is refused with the replay one
    ((code, message),) = check_pins(OPENRLHF_RAY.format(extra="--vllm_return_sampling_mask"), "openrlhf==0.11.2")
    assert code == "RPL204"
    assert f"{UNRECOGNIZED}--vllm_num_engines 4 --vllm_tensor_parallel_size 2 --colocate_all_models --pretrain" in message


def test_openrlhf_abbreviations_its_parser_takes_are_not_refused(check_pins) -> None:
    script = OPENRLHF_RAY.format(extra="--vllm_gpu 0.5 --vllm_return_sampling_mask")  # `--vllm_gpu_memory_utilization`
    ((_, message),) = check_pins(script, "openrlhf==0.8.11")
    assert message.endswith(f'"{UNRECOGNIZED}--vllm_return_sampling_mask"')


def test_openrlhf_a_word_it_cannot_read_is_the_value_of_the_option_before_it(check_pins) -> None:
    # agentbox-rl 0.3.0's docs/integrations/openrlhf.md: the agent file from a command substitution
    script = (
        "python -m openrlhf.cli.train_ppo_ray \\\n"
        '  --train.agent_func_path $(python -c "import agentbox.integrations.openrlhf as m; print(m.__file__)") \\\n'
        "  --vllm.return_sampling_mask\n"
    )
    assert check_pins(script, "openrlhf==0.11.2") == [
        (
            "RPL204",
            f'`--vllm.return_sampling_mask`: openrlhf: train_ppo_ray (OpenRLHF 0.11.2) says "{UNRECOGNIZED}--vllm.return_sampling_mask"',
        )
    ]
    # anywhere else, it may be any words: what the parser says is not known
    assert check_pins(script.replace("--train.agent_func_path ", ""), "openrlhf==0.11.2") == []


def test_openrlhf_other_refusals_are_not_replays(check_pins) -> None:
    assert check_pins(OPENRLHF_RAY.format(extra="--no_such_flag 3"), "openrlhf==0.8.11") == []
    # an ambiguous abbreviation is another argparse error, not quoted
    assert check_pins(OPENRLHF_RAY.format(extra="--vllm 2 --vllm_return_sampling_mask"), "openrlhf==0.8.11") == []
    # so is an option left without its value: argparse stops there, before the unrecognized words
    assert check_pins(OPENRLHF_RAY.format(extra="--vllm_return_sampling_mask --seed"), "openrlhf==0.8.11") == []


def test_openrlhf_without_a_pin_judges_the_editions_of_the_launchs_spelling(check_pins, tmp_path: Path) -> None:
    # Every edition with the flat `--vllm_num_engines` refuses the flag in the same words; 0.10.2 and
    # later refuse the flat flags too, so they are not what the launch is written for (round 9).
    assert check_pins(OPENRLHF_RAY.format(extra="--vllm_return_sampling_mask"), "") == [
        (
            "RPL204",
            f'`--vllm_return_sampling_mask`: openrlhf: train_ppo_ray says "{UNRECOGNIZED}--vllm_return_sampling_mask"',
        )
    ]
    notes = Checker(Config(), ProjectPins()).check_file(str(tmp_path / "run.sh")).notes
    assert notes == [
        "OpenRLHF: no pin of openrlhf was found, and its editions (0.7.0 to 0.11.2, 24 in all) build this launch "
        "differently: only what they agree on is checked"
    ]


def test_openrlhf_launch_without_replay_leaves_no_note(check_pins, tmp_path: Path) -> None:
    # the 24 editions read these flags differently, but nothing of replay is at stake
    assert check_pins(OPENRLHF_RAY.format(extra="--enable_vllm_is_correction"), "") == []
    assert Checker(Config(), ProjectPins()).check_file(str(tmp_path / "run.sh")).notes == []


@pytest.mark.parametrize(
    ("pin", "flag", "expected"),
    [
        ("openrlhf==0.8.11", "--enable_vllm_is_correction", "processed_logprobs"),
        ("openrlhf==0.11.0", "--algo.advantage.is_correction_enable", "processed_logprobs"),
        ("openrlhf==0.11.2", "--algo.advantage.is_correction_level token", "processed_logprobs"),
        ("openrlhf==0.11.2", "--algo.advantage.is_correction_level off", None),
    ],
)
def test_openrlhf_importance_sampling_correction_sets_processed_logprobs(pin: str, flag: str, expected: str | None) -> None:
    release = pin.split("==")[1]
    script = OPENRLHF_RAY.format(extra=flag)
    if not release.startswith("0.8"):  # grouped names from 0.10.2
        for flat, grouped in (
            ("--vllm_num_engines", "--vllm.num_engines"),
            ("--vllm_tensor_parallel_size", "--vllm.tensor_parallel_size"),
            ("--colocate_all_models", "--train.colocate_all"),
            ("--pretrain", "--actor.model_name_or_path"),
            ("--init_kl_coef", "--algo.kl.init_coef"),
        ):
            script = script.replace(flat, grouped)
    built = edition_launch(script, release)
    assert built.issues == () and built.value("tensor_parallel_size") == 2
    assert built.value("model") == "OpenRLHF/Llama-3-8b-sft-mixture"
    assert built.value("logprobs_mode") == expected
    assert built.value("max_logprobs") == (1 if expected else None)


def test_openrlhf_starts_no_engine_without_vllm_engines() -> None:
    launch = shell_launch("python3 -m openrlhf.cli.train_ppo_ray --pretrain m --enforce_eager\n")
    assert launch.framework is not None
    assert all(built.settings == {} for built in launch.framework.editions.values())


# -- open-instruct ----------------------------------------------------------------------------------

OPEN_INSTRUCT_CALL = """\
import ray
import vllm

from open_instruct.vllm_utils import LLMRayActor


def create_vllm_engines(num_engines, tensor_parallel_size, enforce_eager, pretrain, seed, max_model_len,
                        prompt_queue=None, results_queue=None, eval_results_queue=None, actor_manager=None):
    vllm_engines = []
    for i in range(num_engines):
        vllm_engines.append(
            ray.remote(LLMRayActor)
            .options(num_cpus=1, num_gpus=1)
            .remote(
                model=pretrain,
                tensor_parallel_size=tensor_parallel_size,
                enforce_eager=enforce_eager,
                dtype="bfloat16",
                seed=seed + i,
                max_model_len=max_model_len,
                gpu_memory_utilization=0.9,
{mode}                return_sampling_mask=True,
{extra}                bundle_indices=None,
                num_gpus=1,
                prompt_queue=prompt_queue,
                results_queue=results_queue,
                eval_results_queue=eval_results_queue,
                actor_manager=actor_manager,
                tool_parser_type="legacy",
                inflight_updates=False,
            )
        )
    return vllm_engines
"""


def open_instruct(mode: str = '                logprobs_mode="processed_logprobs",\n', extra: str = "") -> str:
    return OPEN_INSTRUCT_CALL.format(mode=mode, extra=extra)


def test_open_instruct_call_with_processed_logprobs_is_clean(check) -> None:
    assert codes(check, {"open_instruct/vllm_utils.py": open_instruct()}, "open_instruct/vllm_utils.py") == []


def test_open_instruct_call_without_mode_is_reported(check) -> None:
    # Before commit 716f27531 open-instruct passed no logprobs_mode.
    assert codes(check, {"open_instruct/vllm_utils.py": open_instruct(mode="")}, "open_instruct/vllm_utils.py") == ["RPL003"]


def test_open_instruct_call_adds_generation_config_and_drops_actor_keys() -> None:
    from replaylint.frontends.python.mappings import mapping_launches

    (launch,) = mapping_launches(SourceFile("vllm_utils.py", open_instruct()))
    assert launch.value("generation_config") == "vllm" and launch.get("generation_config").implied
    assert "prompt_queue" not in launch.settings and "num_gpus" not in launch.settings
    assert not launch.open_ended


def test_open_instruct_speculative_in_the_call(check) -> None:
    extra = '                speculative_config={"method": "ngram", "num_speculative_tokens": 3},\n'
    assert codes(check, {"vllm_utils.py": open_instruct(extra=extra)}, "vllm_utils.py", "0.30.0") == ["RPL002", "RPL004"]


OPEN_INSTRUCT_ACTOR = """\
import vllm


class LLMRayActor:
    def _setup_and_start_async_engine(self, args, bundle_indices, kwargs) -> None:
        num_gpus = kwargs.pop("num_gpus")
        kwargs["generation_config"] = "vllm"
{writes}        engine_args = vllm.AsyncEngineArgs(*args, **kwargs)
        engine_args.disable_log_stats = True
"""


def test_open_instruct_actor_writes_are_settings_of_an_open_ended_engine(check) -> None:
    writes = '        kwargs["return_sampling_mask"] = True\n'
    assert codes(check, {"vllm_utils.py": OPEN_INSTRUCT_ACTOR.format(writes=writes)}, "vllm_utils.py") == []
    writes += '        kwargs["enable_batch_sharded_sampling"] = True\n'
    assert codes(check, {"vllm_utils.py": OPEN_INSTRUCT_ACTOR.format(writes=writes)}, "vllm_utils.py") == ["RPL006"]
    conditional = '        if self.replay:\n            kwargs["return_sampling_mask"] = True\n        kwargs["enable_batch_sharded_sampling"] = True\n'
    assert codes(check, {"vllm_utils.py": OPEN_INSTRUCT_ACTOR.format(writes=conditional)}, "vllm_utils.py") == []


# -- mappings found by content --------------------------------------------------------------------


def test_unclaimed_engine_dict_is_judged_only_on_presence(check) -> None:
    source = (
        "import ray\n\n# vLLM engine arguments for the rollout workers\n"
        "ENGINE_KWARGS = {{\n"
        '    "model": "Qwen/Qwen3-8B",\n    "tensor_parallel_size": 2,\n    "gpu_memory_utilization": 0.85,\n'
        '    "return_sampling_mask": True,\n{extra}}}\n\n\n'
        "def start(worker_cls):\n    return worker_cls.remote(**ENGINE_KWARGS)\n"
    )
    assert codes(check, {"rollout/config.py": source.format(extra="")}, "rollout/config.py") == []  # RPL003 needs the whole config
    extra = '    "logits_processors": ["my_pkg.processors:BanTokens"],\n'
    assert codes(check, {"rollout/config.py": source.format(extra=extra)}, "rollout/config.py") == ["RPL001"]


def test_unknown_spread_keeps_a_call_open_ended(check) -> None:
    source = (
        "import vllm\n\n\ndef start(actor_cls, **kwargs):\n"
        "    return actor_cls.remote(model='m', tensor_parallel_size=2, gpu_memory_utilization=0.8,\n"
        "                            return_sampling_mask=True, **kwargs)\n"
    )
    from replaylint.frontends.python.mappings import mapping_launches

    (launch,) = mapping_launches(SourceFile("workers.py", source))
    assert launch.open_ended and any("**kwargs" in reason for reason in launch.open_reasons)
    assert codes(check, {"workers.py": source}, "workers.py") == []


@pytest.mark.parametrize(
    "source",
    [
        # SGLang's engine: its own names for the same things.
        'import sglang as sgl\nimport vllm\nengine = sgl.Engine(model_path="m", tp_size=2, enable_lora=True, max_lora_rank=64,'
        " return_sampling_mask=True, speculative_config={})\n",
        # A request payload, not an engine configuration.
        'import vllm\npayload = {"temperature": 1.0, "top_p": 0.9, "top_k": 20, "return_sampling_mask": True, "logits_processors": []}\n'
        "client.post(url, json=payload)\n",
        # vLLM's own test doubles (tests/test_config.py).
        "import vllm\nconfig = SimpleNamespace(model_config=SimpleNamespace(max_logprobs=20, return_sampling_mask=True,"
        " tensor_parallel_size=2, enable_batch_sharded_sampling=True))\n",
        # An attribute of an object, not a key.
        "import vllm\nscheduler.return_sampling_mask = True\nscheduler.enable_batch_sharded_sampling = True\n",
        # One engine key beside the mask is not enough to call it an engine configuration.
        'import vllm\nfeatures = {"return_sampling_mask": True, "enable_batch_sharded_sampling": True, "name": "replay"}\n',
        # Kebab-case keys are no keyword arguments: `AsyncEngineArgs(**d)` would refuse them.
        'import vllm\nd = {"return-sampling-mask": True, "tensor-parallel-size": 2, "gpu-memory-utilization": 0.9,'
        ' "enable-batch-sharded-sampling": True}\nworker.remote(**d)\n',
        # The mask off, or unknown.
        'import vllm\nd = {"return_sampling_mask": False, "tensor_parallel_size": 2, "max_model_len": 4096, "enable_batch_sharded_sampling": True}\n',
    ],
)
def test_not_engine_configurations(check, source: str) -> None:
    assert codes(check, {"mod.py": source}, "mod.py") == []


def test_dict_spread_into_an_engine_call_is_reported_once(check) -> None:
    source = (
        "from vllm import LLM\n\n"
        'OPTS = {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.9, "return_sampling_mask": True,'
        ' "logprobs_mode": "processed_logprobs", "enable_batch_sharded_sampling": True}\n\n\n'
        'def main():\n    llm = LLM("Qwen/Qwen3-8B", **OPTS)\n'
    )
    assert codes(check, {"serve.py": source}, "serve.py") == ["RPL006"]


def test_prefilter_lets_a_config_module_through() -> None:
    from replaylint import frontends

    module = b'# vLLM engine arguments\nENGINE = {"tensor_parallel_size": 2, "return_sampling_mask": True}\n'
    assert frontends.relevant("python", module)
    assert not frontends.relevant("python", b"# mentions return_sampling_mask in prose only\nx = 1\n")


def test_openrlhf_actor_with_explicit_keys_beside_its_kwargs(check) -> None:
    # `vllm.AsyncEngineArgs(*args, **self.kwargs)` with keys a fork adds: presence rules only.
    source = (
        "import vllm\n\n\nclass RolloutRayActor:\n"
        "    async def __init__(self, *args, bundle_indices=None, **kwargs):\n"
        "        self.kwargs = kwargs\n"
        "        engine_args = vllm.AsyncEngineArgs(*args, return_sampling_mask=True, **self.kwargs)\n"
    )
    assert codes(check, {"vllm_engine.py": source}, "vllm_engine.py") == []
    with_sharding = source.replace("return_sampling_mask=True,", "return_sampling_mask=True, enable_batch_sharded_sampling=True,")
    assert codes(check, {"vllm_engine.py": with_sharding}, "vllm_engine.py") == ["RPL006"]


# -- open-instruct's command line: grpo_fast.py's HfArgumentParser -------------------------------------

# open-instruct's scripts/train/debug/single_gpu_on_beaker.sh (commit e6c3044a), run directly.
GRPO_FAST = """\
#!/bin/bash
exp_name=qwen3_grpo_replay
{runner} \\
    --exp_name $exp_name \\
    --dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 64 \\
    --dataset_mixer_list_splits train \\
    --max_prompt_token_length 512 \\
    --response_length 512 \\
    --model_name_or_path Qwen/Qwen3-0.6B \\
    --stop_strings "</answer>" \\
    --apply_r1_style_format_reward \\
    --apply_verifiable_reward true \\
    --temperature 0.7 \\
    --vllm_num_engines 1 \\
    --vllm_enforce_eager \\
    {extra}--with_tracking {rest}
"""
HF_UNUSED = "Some specified arguments are not used by the HfArgumentParser: "


def grpo_fast(extra: str, runner: str = "uv run python open_instruct/grpo_fast.py", rest: str = "") -> str:
    return GRPO_FAST.format(runner=runner, extra=extra + " \\\n    " if extra else "", rest=rest)


@pytest.mark.parametrize(
    ("runner", "extra", "refused"),
    [
        ("uv run python open_instruct/grpo_fast.py", "--vllm_return_sampling_mask true", "['--vllm_return_sampling_mask', 'true']"),
        ("python open_instruct/grpo_fast.py", "--return-sampling-mask", "['--return-sampling-mask']"),
        ("uv run open_instruct/grpo_fast.py", "--vllm_logprobs_mode=processed_logprobs", "['--vllm_logprobs_mode=processed_logprobs']"),
        ("python -m open_instruct.grpo_fast", "--top_k 50", "['--top_k', '50']"),
        (
            "VLLM_ALLOW_INSECURE_SERIALIZATION=1 uv run $REPO/open_instruct/grpo_fast.py",
            "--vllm_return_sampling_mask",
            "['--vllm_return_sampling_mask']",
        ),
    ],
)
def test_open_instruct_refuses_a_replay_flag_in_its_own_words(check_pins, runner: str, extra: str, refused: str) -> None:
    ((code, message),) = check_pins(grpo_fast(extra, runner) + "# --return_sampling_mask\n", "ray")
    assert code == "RPL204"
    assert message.endswith(f'says "{HF_UNUSED}{refused}"'), message


def test_open_instruct_refusal_lists_every_word_not_taken(check_pins) -> None:
    ((_, message),) = check_pins(grpo_fast("--vllm_return_sampling_mask --seeds 1"), "ray")
    assert message.endswith(f"{HF_UNUSED}['--vllm_return_sampling_mask', '--seeds', '1']\"")


@pytest.mark.parametrize(
    "extra",
    [
        "--temp 1.0 --use_vllm_logprobs",  # an abbreviation its parser takes; a flag it has
        "--no_filter_zero_std_samples",  # the `no_` form of a field defaulting to true
        "--vllm_return_sampling_mask $MASK_FLAG",  # a word we cannot read: another error may come first
        '--vllm_return_sampling_mask "$@"',
    ],
)
def test_open_instruct_words_it_takes_or_we_cannot_judge(check_pins, extra: str) -> None:
    script = grpo_fast(extra) if "$@" not in extra else grpo_fast("", rest=extra)
    codes_found = [code for code, _ in check_pins(script + "# return_sampling_mask\n", "ray")]
    if "$MASK_FLAG" in extra:
        assert codes_found == []
    elif "$@" in extra:
        assert codes_found == ["RPL204"]  # judged as written: the script run without arguments
    else:
        assert codes_found == []


def test_open_instruct_missing_required_option_is_another_error_first(check_pins) -> None:
    script = grpo_fast("--vllm_return_sampling_mask").replace("    --model_name_or_path Qwen/Qwen3-0.6B \\\n", "")
    assert check_pins(script, "ray") == []


def test_open_instruct_fork_with_the_field_takes_the_flag(check_pins, tmp_path: Path) -> None:
    # a fork that added the flag to VLLMConfig: its own parser takes it
    fork = "@dataclass\nclass VLLMConfig:\n    vllm_num_engines: int = 1\n    vllm_return_sampling_mask: bool = False\n"
    (tmp_path / "open_instruct").mkdir()
    (tmp_path / "open_instruct" / "data_loader.py").write_text(fork)
    assert check_pins(grpo_fast("--vllm_return_sampling_mask true"), "ray") == []
    (tmp_path / "open_instruct" / "data_loader.py").write_text(fork.replace("vllm_return_sampling_mask", "vllm_top_p"))
    assert [code for code, _ in check_pins(grpo_fast("--vllm_return_sampling_mask true"), "ray")] == ["RPL204"]


def test_open_instruct_script_of_another_project_is_no_launch(check_pins) -> None:
    script = grpo_fast("--vllm_return_sampling_mask", runner="python my_project/grpo_fast.py")
    assert check_pins(script, "ray") == []
