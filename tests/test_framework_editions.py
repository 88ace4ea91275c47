"""Framework editions: the release or commit whose code builds a launch, chosen by the project's
pin or by a key only one edition has; without either, only what every edition agrees on is
checked. Also Hydra overrides read by hydra-core's own parser, and messages that fit how a
framework hands its settings to vLLM."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hydra.core.override_parser.overrides_parser import OverridesParser

from replaylint.engine.checker import Checker, FileResult
from replaylint.engine.config import Config
from replaylint.engine.project import ProjectPins
from replaylint.frameworks.views import read_hydra_overrides
from replaylint.model import UNKNOWN, Span
from replaylint.vllm.command_line import Token
from replaylint.vllm.releases import parse_release


def check(tmp_path: Path, files: dict[str, str], name: str, release: str = "0.34.0") -> FileResult:
    """Check `name` among `files` written under tmp_path, with the project's pins read."""
    (tmp_path / ".git").mkdir(exist_ok=True)  # the walk for pins stops at the repository
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    config = Config()
    config.target_vllm = parse_release(release)
    config.target_vllm_forced = True
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        return Checker(config, ProjectPins()).check_file(name)
    finally:
        os.chdir(cwd)


def found(result: FileResult) -> list[tuple[str, str]]:
    return [(finding.code, finding.message) for finding in result.findings]


def codes(result: FileResult) -> list[str]:
    return [finding.code for finding in result.findings]


# -- verl: MTP merges the user's speculative_config from 0.9.0, replaces it before ------------------

VERL_MTP = """\
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=XiaomiMiMo/MiMo-7B-RL \\
    actor_rollout_ref.model.mtp.enable=True \\
    actor_rollout_ref.model.mtp.enable_rollout=True \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.top_k=512 \\
    actor_rollout_ref.rollout.val_kwargs.temperature=0.6 \\
    actor_rollout_ref.rollout.val_kwargs.top_k=20 \\
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \\
    +actor_rollout_ref.rollout.engine_kwargs.vllm.speculative_config.enable_adaptive_verification=True
"""


@pytest.mark.parametrize(
    ("pin_file", "pin", "expected"),
    [
        ("requirements.txt", "verl==0.9.1\n", ["RPL002"]),
        ("requirements.txt", "verl==0.9.0\n", ["RPL002"]),
        ("requirements.txt", "verl>=0.9,<0.10\n", ["RPL002"]),
        ("requirements.txt", "verl==0.8.0\n", []),
        ("requirements.txt", "verl==0.7.1\n", []),
        ("pyproject.toml", '[project]\nname = "r"\ndependencies = ["verl==0.8.0", "vllm>=0.33"]\n', []),
        (
            "uv.lock",
            'version = 1\n\n[[package]]\nname = "verl"\nversion = "0.9.1"\nsource = { registry = "https://pypi.org/simple" }\n',
            ["RPL002"],
        ),
    ],
)
def test_verl_mtp_adaptive_verification_by_pinned_release(tmp_path: Path, pin_file: str, pin: str, expected: list[str]) -> None:
    result = check(tmp_path, {"run.sh": VERL_MTP, pin_file: pin}, "run.sh")
    assert codes(result) == expected


def test_verl_without_a_pin_checks_what_every_edition_agrees_on(tmp_path: Path) -> None:
    result = check(tmp_path, {"run.sh": VERL_MTP}, "run.sh")
    assert codes(result) == []
    assert any("verl: no pin of verl was found" in note and "0.8.0, 0.9.0, 0.9.1" in note for note in result.notes)
    # Speculative decoding itself is in every edition: vLLM 0.31 refuses any of it with the mask.
    assert codes(check(tmp_path, {"run.sh": VERL_MTP}, "run.sh", release="0.31.0")) == ["RPL002"]


def test_verl_default_names_the_pinned_release(tmp_path: Path) -> None:
    script = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True\n"
    messages = [message for _, message in found(check(tmp_path, {"run.sh": script, "requirements.txt": "verl==0.8.0\n"}, "run.sh"))]
    assert any("(verl 0.8.0's default)" in message for message in messages), messages


# -- prime-rl: main sets VLLM_USE_V2_MODEL_RUNNER=0 with setdefault --------------------------------

PRIME_MAIN_PIN = '[project]\nname = "my-rl"\ndependencies = ["prime-rl @ git+https://github.com/PrimeIntellect-ai/prime-rl@main"]\n'
PRIME_MASK = """\
[model]
name = "Qwen/Qwen3-8B"

[orchestrator]

[trainer]

[inference]

[inference.vllm]
return_sampling_mask = true
{env}"""


def test_prime_rl_main_default_runner_variable_stops_vllm_034(tmp_path: Path) -> None:
    result = check(tmp_path, {"rl.toml": PRIME_MASK.format(env=""), "pyproject.toml": PRIME_MAIN_PIN}, "rl.toml")
    assert found(result) == [
        (
            "RPL206",
            "`VLLM_USE_V2_MODEL_RUNNER=0 (set by prime-rl main)` asks for a runner that no longer exists (set "
            "VLLM_USE_V2_MODEL_RUNNER=1 where the framework takes environment variables to keep it away): "
            'vLLM 0.34.0 says "VLLM_USE_V2_MODEL_RUNNER=0 is no longer supported: Model Runner V1 has been removed. Unset this variable."',
        )
    ]
    assert result.findings[0].fix is None
    # Before 0.34 the same default keeps Model Runner V1, which replay refuses.
    assert codes(check(tmp_path, {"rl.toml": PRIME_MASK.format(env="")}, "rl.toml", release="0.33.0")) == ["RPL004"]


def test_prime_rl_main_users_runner_variable_is_the_line_that_lets_it_start(tmp_path: Path) -> None:
    env = '\n[inference.env_vars]\nVLLM_USE_V2_MODEL_RUNNER = "1"\n'
    files = {"rl.toml": PRIME_MASK.format(env=env), "pyproject.toml": PRIME_MAIN_PIN}
    assert codes(check(tmp_path, files, "rl.toml")) == []


def test_prime_rl_without_a_pin_reports_neither(tmp_path: Path) -> None:
    assert codes(check(tmp_path, {"rl.toml": PRIME_MASK.format(env="")}, "rl.toml")) == []
    env = '\n[inference.env_vars]\nVLLM_USE_V2_MODEL_RUNNER = "1"\n'
    assert codes(check(tmp_path, {"rl.toml": PRIME_MASK.format(env=env)}, "rl.toml")) == []


def test_prime_rl_mask_field_is_a_key_only_the_sampling_mask_edition_has(tmp_path: Path) -> None:
    text = '[model]\nname = "m"\n\n[orchestrator]\n\n[trainer]\n\n[inference]\nenable_return_sampling_mask = true\n'
    # That edition sets VLLM_USE_V2_MODEL_RUNNER=1 itself with the mask: nothing to report.
    assert codes(check(tmp_path, {"rl.toml": text}, "rl.toml")) == []
    raw = text + '\n[inference.vllm]\nlogprobs_mode = "raw_logprobs"\n'
    assert codes(check(tmp_path, {"rl.toml": raw}, "rl.toml")) == ["RPL003"]


# -- SkyRL: eval requests ----------------------------------------------------------------------------

SKYRL = (
    "uv run --isolated --extra vllm -m skyrl.train.entrypoints.main_base \\\n"
    "  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
    "  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \\\n"
    "  generator.sampling_params.top_k=64 {extra}\n"
)


def test_skyrl_eval_temperature_is_sampling_params_default_once_a_key_is_written(tmp_path: Path) -> None:
    result = check(tmp_path, {"run.sh": SKYRL.format(extra="generator.eval_sampling_params.top_k=20")}, "run.sh")
    assert codes(result) == []
    # Nothing written: SkyRL's greedy eval default, reported at the mask.
    result = check(tmp_path, {"run.sh": SKYRL.format(extra="")}, "run.sh")
    assert codes(result) == ["RPL101", "RPL102"]
    assert "eval_sampling_params.temperature=0.0 (SkyRL 0.4.0's default)" in result.findings[0].message  # no pin: the newest
    result = check(tmp_path, {"run.sh": SKYRL.format(extra=""), "requirements.txt": "skyrl==0.3.0\n"}, "run.sh")
    assert "eval_sampling_params.temperature=0.0 (SkyRL 0.3.0's default)" in result.findings[0].message


def test_skyrl_kebab_logprobs_mode_is_named_as_ignored(tmp_path: Path) -> None:
    script = SKYRL.replace("engine_init_kwargs.logprobs_mode", "engine_init_kwargs.logprobs-mode").format(
        extra="generator.eval_sampling_params.top_k=20"
    )
    result = check(tmp_path, {"run.sh": script}, "run.sh")
    assert codes(result) == ["RPL003"]
    message = result.findings[0].message
    assert "`generator.inference_engine.engine_init_kwargs.logprobs-mode=processed_logprobs`, which is ignored" in message
    assert "SkyRL sets attributes by name; vLLM reads `logprobs_mode`" in message
    assert "so logprobs_mode defaults to 'raw_logprobs'" in message


# -- SkyRL 0.4.0: the sample-support capture sets processed_logprobs; serve sends no request ------------

SKYRL_SUPPORT = (
    "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \\\n"
    "  trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct \\\n"
    "  generator.inference_engine.enable_return_sample_support_set=true \\\n"
    "  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
    "  generator.sampling_params.top_k={top_k} generator.eval_sampling_params.top_k=20\n"
)


@pytest.mark.parametrize(("pin", "expected"), [("skyrl==0.4.0", []), ("skyrl==0.3.0", ["RPL003"]), ("", [])])
def test_skyrl_sample_support_sets_processed_logprobs_from_040(tmp_path: Path, pin: str, expected: list[str]) -> None:
    files = {"run.sh": SKYRL_SUPPORT.format(top_k=20), "requirements.txt": pin + "\n"}
    assert codes(check(tmp_path, files, "run.sh")) == expected


def test_skyrl_040_refuses_a_capture_without_top_k(tmp_path: Path) -> None:
    files = {"run.sh": SKYRL_SUPPORT.format(top_k=-1), "requirements.txt": "skyrl==0.4.0\n"}
    assert found(check(tmp_path, files, "run.sh")) == [
        (
            "RPL204",
            "`generator.sampling_params.top_k=-1`: skyrl: uv run -m skyrl.train.entrypoints.main_base (SkyRL 0.4.0) says "
            '"sample-support capture requires generator.sampling_params.top_k > 1"',
        )
    ]
    # SkyRL's default top_k=-1, reported at the capture's key
    script = SKYRL_SUPPORT.replace(" generator.sampling_params.top_k={top_k}", "")
    result = check(tmp_path, {"run.sh": script, "requirements.txt": "skyrl==0.4.0\n"}, "run.sh")
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL204", 3)]


SKYRL_SERVE = (
    "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.serve \\\n"
    "    trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct trainer.placement.colocate_all=false \\\n"
    "    generator.inference_engine.engine_init_kwargs.return_sampling_mask=true {extra}\n"
)


def test_skyrl_serve_builds_main_bases_servers_and_sends_no_request(tmp_path: Path) -> None:
    result = check(tmp_path, {"serve.sh": SKYRL_SERVE.format(extra="")}, "serve.sh")
    assert codes(result) == ["RPL003"]  # vLLM's raw_logprobs; no greedy eval request of SkyRL's
    processed = SKYRL_SERVE.format(extra="generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs")
    assert codes(check(tmp_path, {"serve.sh": processed}, "serve.sh")) == []


def test_skyrl_serve_does_not_draft_with_mtp(tmp_path: Path) -> None:
    script = SKYRL_SERVE.format(
        extra="generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs trainer.mtp.enabled=true"
    )
    # `_validate_serve_cfg` never runs `_apply_mtp_config`; main_base's `validate_cfg` does (vLLM 0.31: no drafting with the mask)
    assert codes(check(tmp_path, {"serve.sh": script}, "serve.sh", release="0.31.0")) == []
    main_base = script.replace("entrypoints.serve", "entrypoints.main_base").replace(" {extra}", "")
    assert "RPL002" in codes(check(tmp_path, {"run.sh": main_base}, "run.sh", release="0.31.0"))


def test_skyrl_refuses_hydras_plus_prefix(tmp_path: Path) -> None:
    script = SKYRL_SERVE.format(extra="").replace(
        "generator.inference_engine.engine_init_kwargs", "+generator.inference_engine.engine_init_kwargs"
    )
    assert found(check(tmp_path, {"serve.sh": script}, "serve.sh")) == [
        (
            "RPL204",
            "`+generator.inference_engine.engine_init_kwargs.return_sampling_mask=true`: skyrl: uv run -m skyrl.train.entrypoints.serve "
            "says \"The '+' prefix for adding new config fields is not supported: "
            "'+generator.inference_engine.engine_init_kwargs.return_sampling_mask=true'. "
            'To add custom config fields, subclass the relevant config dataclass."',
        )
    ]


# -- TRL: 1.11 and later forward vLLM's flags, 1.10 and earlier refuse them -----------------------------

TRL_SERVE = "CUDA_VISIBLE_DEVICES=4,5,6,7 trl vllm-serve --model Qwen/Qwen3-8B --tensor-parallel-size 4 --return-sampling-mask \\\n  --logprobs-mode raw_logprobs\n"
MASK_WITH_RAW = (
    '`--logprobs-mode raw_logprobs` with `--return-sampling-mask`: vLLM 0.34.0 says "sampling distribution replay requires '
    "logprobs_mode='processed_logprobs' so that returned logprobs are normalized over the same nucleus as the sampling mask\""
)
TRL_REFUSES = "Some specified arguments are not used by the HfArgumentParser: ['--return-sampling-mask', '--logprobs-mode', 'raw_logprobs']"


@pytest.mark.parametrize(
    ("pin", "expected"),
    [
        ("trl==1.10.0", [("RPL204", f'`--return-sampling-mask`: trl vllm-serve (TRL 1.10.0) says "{TRL_REFUSES}"')]),
        ("trl==1.4.0", [("RPL204", f'`--return-sampling-mask`: trl vllm-serve (TRL 1.10.0) says "{TRL_REFUSES}"')]),
        ("trl==1.16.0", [("RPL003", MASK_WITH_RAW)]),
        ("trl>=1.11", [("RPL003", MASK_WITH_RAW)]),
        ("trl>=1.0", []),  # admits both editions
        ("trl>=1.2,<1.5", [("RPL204", f'`--return-sampling-mask`: trl vllm-serve (TRL 1.10.0) says "{TRL_REFUSES}"')]),
        ("trl~=1.14.0", [("RPL003", MASK_WITH_RAW)]),
        ("", []),
    ],
)
def test_trl_forwarded_flags_by_pinned_release(tmp_path: Path, pin: str, expected: list[tuple[str, str]]) -> None:
    assert found(check(tmp_path, {"serve.sh": TRL_SERVE, "requirements.txt": pin + "\n"}, "serve.sh")) == expected


def test_trl_without_a_pin_says_the_editions_disagree(tmp_path: Path) -> None:
    result = check(tmp_path, {"serve.sh": TRL_SERVE}, "serve.sh")
    assert codes(result) == [] and any("TRL: no pin of trl was found" in note for note in result.notes)


def test_trl_116_fix_edits_the_forwarded_mode(tmp_path: Path) -> None:
    result = check(tmp_path, {"serve.sh": TRL_SERVE, "requirements.txt": "trl==1.16.0\n"}, "serve.sh")
    (edit,) = result.findings[0].edits
    assert TRL_SERVE[edit.span.start : edit.span.end] == "raw_logprobs" and edit.content == "processed_logprobs"


def test_trl_110_refuses_unknown_config_keys_after_the_command_line(tmp_path: Path) -> None:
    files = {
        "serve.sh": "trl vllm-serve --config serve.yaml\n",
        "serve.yaml": "model: Qwen/Qwen2.5-7B-Instruct\ntensor_parallel_size: 2\nreturn_sampling_mask: true\n",
        "requirements.txt": "trl==1.10.0\n",
    }
    (message,) = [message for code, message in found(check(tmp_path, files, "serve.sh")) if code == "RPL204"]
    assert "Unknown arguments from config file: ['--return_sampling_mask', 'True']. Please remove them" in message


def test_trl_110_without_replay_words_is_not_reported(tmp_path: Path) -> None:
    files = {"serve.sh": "trl vllm-serve --model m --max-num-seqs 8\n", "requirements.txt": "trl==1.10.0\n"}
    assert codes(check(tmp_path, files, "serve.sh")) == []


# -- NeMo-RL: 0.7.0 hard-codes processed_logprobs, main leaves vLLM's default -------------------------

NEMO = (
    "uv run python examples/run_grpo.py --config examples/configs/grpo_custom.yaml "
    "++policy.generation.vllm_kwargs.return_sampling_mask=true policy.generation.top_k=20\n"
)
# A user's config without `vllm_cfg.logprobs_mode` (NeMo-RL main's own grpo_math_1B.yaml sets it).
NEMO_CONFIG = {
    "examples/configs/grpo_custom.yaml": (
        "policy:\n  model_name: Qwen/Qwen3-8B\n  generation:\n    backend: vllm\n    temperature: 1.0\n    top_k: null\n"
        "    vllm_cfg:\n      tensor_parallel_size: 1\n    vllm_kwargs: {}\n"
    )
}


@pytest.mark.parametrize(
    ("ref", "expected"),
    [("main", ["RPL003"]), ("7ea279abfbeb", ["RPL003"]), ("v0.7.0", []), ("81aa43dda4765b04", []), ("v0.2.0", [])],
)
def test_nemo_rl_logprobs_mode_by_pinned_ref(tmp_path: Path, ref: str, expected: list[str]) -> None:
    pin = f"nemo-rl @ git+https://github.com/NVIDIA-NeMo/RL@{ref}\n"
    assert codes(check(tmp_path, {"run.sh": NEMO, "requirements.txt": pin, **NEMO_CONFIG}, "run.sh")) == expected


def test_nemo_rl_uv_lock_git_commit(tmp_path: Path) -> None:
    lock = (
        'version = 1\n\n[[package]]\nname = "nemo-rl"\nversion = "0.6.0"\n'
        'source = { git = "https://github.com/NVIDIA-NeMo/RL?rev=main#7ea279abfbeb698b092856d0dab61e7cf39bc909" }\n'
    )
    assert codes(check(tmp_path, {"run.sh": NEMO, "uv.lock": lock, **NEMO_CONFIG}, "run.sh")) == ["RPL003"]


def test_nemo_rl_without_a_pin_leaves_logprobs_mode_unknown(tmp_path: Path) -> None:
    assert codes(check(tmp_path, {"run.sh": NEMO, **NEMO_CONFIG}, "run.sh")) == []


def test_nemo_rl_070_rejects_logprobs_mode_in_vllm_kwargs(tmp_path: Path) -> None:
    script = NEMO.rstrip("\n") + " ++policy.generation.vllm_kwargs.logprobs_mode=processed_logprobs\n"
    files = {"run.sh": script, "requirements.txt": "nemo-rl @ git+https://github.com/NVIDIA-NeMo/RL@v0.7.0\n", **NEMO_CONFIG}
    result = check(tmp_path, files, "run.sh")
    assert codes(result) == ["RPL204"]
    assert "dict() got multiple values for keyword argument 'logprobs_mode'" in result.findings[0].message


def test_nemo_rl_replay_switch_chooses_its_edition(tmp_path: Path) -> None:
    text = "policy:\n  sampling_mask_replay:\n    enabled: true\n  generation:\n    temperature: 1.0\n    top_k: 0\n"
    result = check(tmp_path, {"grpo.yaml": text}, "grpo.yaml")
    assert codes(result) == ["RPL102"]


# -- RPL007 in the words the launch meets ----------------------------------------------------------


def test_rpl007_nemo_rl_keywords_raise_engine_args_type_error(tmp_path: Path) -> None:
    result = check(tmp_path, {"run.sh": NEMO, **NEMO_CONFIG}, "run.sh", release="0.27.1")
    assert [message for code, message in found(result) if code == "RPL007"] == [
        "`++policy.generation.vllm_kwargs.return_sampling_mask=true` needs vLLM 0.28.0 or newer: vLLM 0.27.1 says "
        "\"EngineArgs.__init__() got an unexpected keyword argument 'return_sampling_mask'\""
    ]


def test_rpl007_skyrl_attributes_are_silently_ignored(tmp_path: Path) -> None:
    result = check(tmp_path, {"run.sh": SKYRL.format(extra="")}, "run.sh", release="0.27.1")
    messages = [message for code, message in found(result) if code == "RPL007"]
    assert len(messages) == 1
    assert "vLLM 0.27.1 says nothing: SkyRL sets `return_sampling_mask` on vLLM's argument namespace" in messages[0]
    assert "unrecognized arguments" not in messages[0]


def test_rpl007_verl_words_meet_argparse(tmp_path: Path) -> None:
    result = check(tmp_path, {"run.sh": VERL_MTP}, "run.sh", release="0.27.1")
    assert any(code == "RPL007" and "unrecognized arguments: --return_sampling_mask" in message for code, message in found(result))


# -- Hydra overrides by Hydra's own grammar ----------------------------------------------------------

SPAN = Span("run.sh", 1, 1, 1, 1, 0, 0)


def read(*words: str):
    return read_hydra_overrides([Token(word, SPAN, word) for word in words])


@pytest.mark.parametrize(
    "word",
    [
        "+a.speculative_config={method:dspark,num_speculative_tokens:4,enable_adaptive_verification:true}",
        "a.b='True'",
        'a.b="0"',
        "a.b=[1,2,x]",
        "a.b={x: 1, y: [true, null]}",
        "a.b=key:value",
        "++a.b=abc def",
        "a.b=1_000",
        "a.b=1e3",
        "a.b=null",
        "a.b=NULL",
        "a.b=TRUE",
        "a.b=",
        "a.b=\\,",
    ],
)
def test_hydra_values_are_hydras_own(word: str) -> None:
    expected = OverridesParser.create().parse_override(word).value()
    key = word.lstrip("+").split("=", 1)[0].split(".")
    assert read(word).value(*key) == expected


def test_hydra_dict_with_colons_reaches_rpl002(tmp_path: Path) -> None:
    script = (
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.top_k=64 \\\n"
        "  actor_rollout_ref.rollout.val_kwargs.temperature=1 actor_rollout_ref.rollout.val_kwargs.top_k=64 \\\n"
        "  +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \\\n"
        "  '+actor_rollout_ref.rollout.engine_kwargs.vllm.speculative_config={method:dspark,num_speculative_tokens:4,enable_adaptive_verification:true}'\n"
    )
    assert codes(check(tmp_path, {"run.sh": script}, "run.sh")) == ["RPL002"]


def test_hydra_interpolations_are_unknown_wherever_they_are() -> None:
    overrides = read("a.b=${oc.env:MODE}", "a.c=[${x},2]", "a.d={k:'${y}'}", "a.e=pre${x}post")
    assert overrides.value("a", "b") is UNKNOWN
    assert overrides.value("a", "c") == [UNKNOWN, 2]
    assert overrides.value("a", "d") == {"k": UNKNOWN}
    assert overrides.value("a", "e") is UNKNOWN


def test_hydra_deletion_sweeps_groups_and_errors() -> None:
    overrides = read("a.b=1", "~a.b", "a.c=1,2", "a.d=range(1,3)")
    assert overrides.value("a", "b") == 1  # the deletion leaves the default, which the adapter knows
    assert overrides.value("a", "c") is UNKNOWN and overrides.value("a", "d") is UNKNOWN
    assert not overrides.open_reasons
    overrides = read("rollout@actor_rollout_ref.rollout=sglang", "model/size=large", "a.b='unclosed")
    assert len(overrides.open_reasons) == 3 and overrides.words == []


def test_hydra_value_span_points_at_the_value() -> None:
    word = Token("+a.b=raw_logprobs", Span("run.sh", 3, 5, 3, 22, 40, 57), "+a.b=raw_logprobs")
    written = read_hydra_overrides([word]).words[0]
    assert (written.value_span.start_col, written.value_span.start) == (10, 45)


# -- the project's pins of framework packages ---------------------------------------------------------


def test_package_pins_from_uv_sources_poetry_and_requirements(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "pyproject.toml").write_text(
        '[project]\nname = "a"\ndependencies = ["nemo-rl"]\n\n[tool.uv.sources]\nnemo-rl = { git = "https://github.com/NVIDIA-NeMo/RL", tag = "v0.7.0" }\n'
    )
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "pyproject.toml").write_text('[tool.poetry.dependencies]\nverl = "^0.9"\n')
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "requirements.txt").write_text("skyrl==0.3.0  # the trainer\nvllm==0.33.0\n")
    pins = ProjectPins()
    assert pins.package_pin(str(tmp_path / "a" / "run.sh"), "nemo-rl").refs == ("v0.7.0",)
    verl = pins.package_pin(str(tmp_path / "b" / "run.sh"), "verl")
    assert verl.ranged() and verl.admits(parse_release("0.9.1")) and not verl.admits(parse_release("0.10.0"))
    assert pins.package_pin(str(tmp_path / "c" / "run.sh"), "skyrl").versions == ("0.3.0",)
    assert pins.package_pin(str(tmp_path / "c" / "run.sh"), "verl") is None
    assert "skyrl==0.3.0" in pins.describe_source(str(tmp_path / "c" / "run.sh"))


def test_editions_that_disagree_keep_no_run_time_choices() -> None:
    # one edition sends `temperature = 0.0 if greedy else 0.7` (two choices, both known), another a fixed 1.0: without a pin
    # the request's temperature is not known, and no rule may judge the first edition's choices as if every edition had them
    from replaylint.frameworks.editions import unite
    from replaylint.model import Launch, LaunchKind, Request, Setting

    span = Span("rollout.yaml", 1, 1, 1, 2, 0, 1)

    def temperature(value, choices=()):
        return Setting("temperature", value, span, "temperature", choices=tuple(Setting("temperature", c, span, "t") for c in choices))

    def launch(setting):
        return Launch(LaunchKind.FRAMEWORK, span, {}, requests=(Request("sampling", span, {"temperature": setting}),))

    split = unite([launch(temperature(UNKNOWN, (0.0, 0.7))), launch(temperature(1.0))])
    assert split.requests[0].settings["temperature"].value is UNKNOWN
    assert split.requests[0].settings["temperature"].choices == ()
    same = unite([launch(temperature(UNKNOWN, (0.0, 0.7))), launch(temperature(UNKNOWN, (0.0, 0.7)))])
    assert [choice.value for choice in same.requests[0].settings["temperature"].choices] == [0.0, 0.7]
