"""AReaL (PyPI `areal` 1.0.4): its closed `vLLMConfig` refuses a replay key under `vllm:` in
OmegaConf's words (frameworks/areal.py), in its YAML config and on its launchers' command lines;
and the framework registry it was added by (one module, one `framework_registry` line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.engine.project import ProjectPins
from replaylint.framework_registry import ADAPTERS, entry_points
from replaylint.frameworks.editions import PINNED_PACKAGES, family_of
from replaylint.programs import split_launcher

REFUSED = "Key 'return_sampling_mask' not in 'vLLMConfig'"

# examples/math/gsm8k_grpo.yaml of AReaL v1.0.4, cut to the keys that matter here
CONFIG = """\
experiment_name: gsm8k-grpo
trial_name: trial0
seed: 1
tokenizer_path: ${{actor.path}}
rollout:
  backend: "vllm:d4p1t1"
actor:
  path: Qwen/Qwen2.5-1.5B-Instruct
vllm:
  model: ${{actor.path}}
  seed: ${{seed}}
  skip_tokenizer_init: false
{extra}  max_model_len: 32768
  gpu_memory_utilization: 0.8
"""


def findings(check, files: dict[str, str]) -> list[tuple[str, str, int, str]]:
    results = check(files)
    return [
        (name, finding.code, finding.span.start_line, finding.message) for name, result in results.items() for finding in result.findings
    ]


@pytest.mark.parametrize("spelling", ["return_sampling_mask: true", '"return_sampling_mask": yes', "return_sampling_mask: false"])
def test_config_with_a_mask_key_is_refused_by_areal_in_omegaconfs_words(check, spelling: str) -> None:
    # the key is refused whatever its value: the dataclass has no such field
    ((name, code, line, message),) = findings(check, {"gsm8k_grpo.yaml": CONFIG.format(extra=f"  {spelling}\n")})
    assert (name, code, line) == ("gsm8k_grpo.yaml", "RPL204", 13)
    assert message.endswith(f'AReaL: gsm8k_grpo.yaml says "{REFUSED}"')


def test_config_refusal_names_the_first_replay_key_written(check) -> None:
    # OmegaConf's merge stops at the first key the dataclass lacks, in the order written
    extra = "  logprobs_mode: processed_logprobs\n  return_sampling_mask: true\n"
    ((_, code, _, message),) = findings(check, {"c.yaml": CONFIG.format(extra=extra)})
    assert code == "RPL204"
    assert "Key 'logprobs_mode' not in 'vLLMConfig'" in message


def test_config_without_replay_keys_is_clean(check) -> None:
    # AReaL's own keys, and an unknown key that is not replay's (AReaL's business, not reported)
    text = CONFIG.format(extra="  no_enable_prefix_caching: true\n  kv_cache_dtype: fp8\n")
    assert findings(check, {"c.yaml": text}) == []


def test_a_vllm_section_without_areals_shape_is_not_areals(check) -> None:
    # no experiment_name/trial_name: an engine-argument mapping, judged as any other (not RPL204)
    text = "vllm:\n  return_sampling_mask: true\n  model: m\n  max_model_len: 4096\n"
    assert all(code != "RPL204" for _, code, _, _ in findings(check, {"engine.yaml": text}))


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m areal.infra.launcher.local examples/math/gsm8k_rl.py --config gsm8k_grpo.yaml +vllm.return_sampling_mask=true",
        "python -m areal.infra.launcher.ray train.py --config c.yaml scheduler.type=ray ++vllm.return_sampling_mask=True",
        "uv run python -m areal.infra.launcher.vllm_server --config c.yaml +vllm.return_sampling_mask=1",
    ],
)
def test_launcher_override_adding_the_mask_is_refused(check, command: str) -> None:
    ((_, code, _, message),) = findings(check, {"run.sh": command + "\n"})
    assert code == "RPL204"
    assert message.endswith(f'says "{REFUSED}"')
    assert message.startswith("`+")


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m areal.infra.launcher.local train.py --config c.yaml +vllm.max_model_len=4096",
        # refused too, but by Hydra or by the merge depending on the config: words not known here
        "python3 -m areal.infra.launcher.local train.py --config c.yaml vllm.return_sampling_mask=true",
        "python3 -m areal.infra.launcher.local train.py --config c.yaml +sglang.return_sampling_mask=true",
    ],
)
def test_launcher_overrides_not_judged(check, command: str) -> None:
    assert findings(check, {"run.sh": command + "\n"}) == []


# the head of examples/math/gsm8k_rl.py of AReaL v1.0.4
TRAINING_SCRIPT = """\
import sys

from areal import PPOTrainer
from areal.api.cli_args import GRPOConfig, load_expr_config


def main(args):
    config, _ = load_expr_config(args, GRPOConfig)


if __name__ == "__main__":
    main(sys.argv[1:])
"""


@pytest.mark.parametrize("runner", ["python3", "uv run python", "accelerate launch --num_processes 2", "torchrun --nproc_per_node 8"])
def test_training_script_override_adding_the_mask_is_refused(check, runner: str) -> None:
    command = (
        f"{runner} examples/math/gsm8k_rl.py --config examples/math/gsm8k_grpo.yaml scheduler.type=local +vllm.return_sampling_mask=true\n"
    )
    files = {"examples/math/gsm8k_rl.py": TRAINING_SCRIPT, "run.sh": command}
    ((name, code, _, message),) = findings(check, files)
    assert (name, code) == ("run.sh", "RPL204")
    assert f'examples/math/gsm8k_rl.py says "{REFUSED}"' in message


@pytest.mark.parametrize(
    "script",
    [
        None,  # not in the tree: whose program it is is not known
        "import sys\n\nfrom myproject import load_expr_config\n\nload_expr_config(sys.argv[1:])\n",  # not AReaL's
        "from areal.utils import logging\n\nlogging.getLogger('x')\n",  # AReaL's, but reads no config
    ],
)
def test_other_programs_with_the_same_words_are_not_areals(check, script: str | None) -> None:
    files = {"run.sh": "python3 train.py --config c.yaml +vllm.return_sampling_mask=true\n"}
    if script is not None:
        files["train.py"] = script
    assert findings(check, files) == []


@pytest.mark.parametrize("pin", ["areal==1.0.4", "areal @ git+https://github.com/inclusionAI/AReaL@v1.0.2"])
def test_a_pin_of_areal_names_the_edition(tmp_path: Path, pin: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text(pin + "\n")
    (tmp_path / "c.yaml").write_text(CONFIG.format(extra="  return_sampling_mask: true\n"))
    result = Checker(Config(), ProjectPins()).check_file(str(tmp_path / "c.yaml"))
    ((finding),) = result.findings
    assert f'(AReaL 1.0.4) says "{REFUSED}"' in finding.message


# -- the registry ---------------------------------------------------------------------------------


def test_registry_derives_launchers_and_pins() -> None:
    assert split_launcher(["python", "-m", "areal.infra.launcher.slurm", "t.py"]) == ("areal", 3)
    assert split_launcher(["trl", "vllm-serve", "--model", "m"]) == ("trl", 2)
    assert split_launcher(["uv", "run", "open_instruct/grpo_fast.py"]) == ("open-instruct", 3)
    # only the entry points that say so run under torchrun / accelerate launch
    assert split_launcher(["torchrun", "trl/scripts/grpo.py"]) == ("trl-train", 2)
    assert split_launcher(["torchrun", "open_instruct/grpo_fast.py"]) == ("trl-script", 1)
    assert "areal" in PINNED_PACKAGES
    assert PINNED_PACKAGES[:7] == ("verl", "nemo-rl", "skyrl", "prime-rl", "trl", "openrlhf", "open-instruct")


def test_every_entry_point_and_finder_names_a_function_of_its_adapter() -> None:
    for adapter, entry in entry_points().values():
        assert entry.users_program or callable(adapter.function_of(entry)), (adapter.name, entry.name)
    for adapter in ADAPTERS:
        module = adapter.load()
        for finder in (
            adapter.yaml_finder,
            adapter.toml_finder,
            adapter.script_reader,
            *(("claims", "engine_settings") if adapter.claims_mappings else ()),
        ):
            if finder:
                assert callable(getattr(module, finder)), (adapter.name, finder)


def test_the_packages_pinned_are_the_editions_packages() -> None:
    # a framework's pins choose its edition only when the registry lists the package its editions name
    families = [getattr(adapter.load(), adapter.editions) for adapter in ADAPTERS if adapter.editions]
    assert sorted(family.package for family in families) == sorted(PINNED_PACKAGES)
    assert all(family_of(family.package) is family for family in families)
