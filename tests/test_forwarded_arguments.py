"""A script's forwarded arguments (`"$@"`) and the defaults of its parameter expansions
(`${MODEL:-Qwen/Qwen3-8B}`, `: "${INFERENCE_BACKEND:=vllm}"`, `ENGINE=${1:-vllm}`).

A launch that names what it starts and hands the script's own arguments on is judged as the
script is written, run without them; a finding on an absent setting says the arguments may set
it. A wrapper whose arguments carry the launch itself stays open-ended, and so does every such
launch with `forwarded-arguments = "open"`. A default is taken when nothing in the script sets
its variable, and a finding that rests on it says when it holds. The scripts are written as
verl's `examples/*_trainer/run_*.sh`, SkyRL's `examples/train/**/run_*.sh` and NeMo-RL's
`tests/functional/*.sh` write them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_framework_editions import check as check_with_pins

from replaylint.cli.main import main
from replaylint.engine.config import Config, ConfigError, apply_override

CAVEAT = "(unless the script's arguments set it)"


def findings(check, files: dict[str, str], name: str = "run.sh", **config: object) -> list[tuple[str, int, str]]:
    """(code, line, message) of each finding in `name`, checked with `config`."""
    return [(f.code, f.span.start_line, f.message) for f in check(files, **config)[name].findings]


def codes(found: list[tuple[str, int, str]]) -> list[str]:
    return [code for code, _, _ in found]


# -- verl: python3 -m verl.trainer.main_ppo ... $@ ------------------------------------------------

VERL = """\
set -x

python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_files=$HOME/data/gsm8k/train.parquet \\
    data.val_files=$HOME/data/gsm8k/test.parquet \\
    data.train_batch_size=1024 \\
    actor_rollout_ref.model.path=Qwen/Qwen2-7B-Instruct \\
    actor_rollout_ref.actor.optim.lr=1e-6 \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \\
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \\
{fixed}    trainer.logger='["console","wandb"]' \\
    trainer.n_gpus_per_node=8 \\
    trainer.nnodes=1 \\
    trainer.test_freq=5 \\
    trainer.total_epochs=15 $@
"""
VERL_FIXED = """\
    actor_rollout_ref.rollout.top_k=50 \\
    actor_rollout_ref.rollout.val_kwargs.top_k=50 \\
    actor_rollout_ref.rollout.val_kwargs.temperature=0.7 \\
"""


def test_verl_script_that_forwards_its_arguments_is_judged_as_written(check) -> None:
    found = findings(check, {"run.sh": VERL.format(fixed="")})
    assert sorted(codes(found)) == ["RPL101", "RPL102", "RPL102"]
    messages = [message for _, _, message in found]
    assert all(CAVEAT in message for message in messages)
    assert any(
        "`actor_rollout_ref.rollout.top_k=-1 (verl 0.9.1's default)` in a request to a replay engine " + CAVEAT in m for m in messages
    )
    assert all(line == 13 for _, line, _ in found)  # at the mask, whose words made the defaults matter


def test_verl_script_that_fixes_every_default_is_clean(check) -> None:
    assert findings(check, {"run.sh": VERL.format(fixed=VERL_FIXED)}) == []


def test_forwarded_arguments_open_restores_silence(check) -> None:
    assert findings(check, {"run.sh": VERL.format(fixed="")}, forwarded_arguments="open") == []


def test_verl_wrapper_of_its_arguments_alone_starts_nothing_we_can_judge(check) -> None:
    wrapper = 'python3 -m verl.trainer.main_ppo "$@"\n'
    masked = 'python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm \\\n    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True "$@"\n'
    assert findings(check, {"run.sh": wrapper}) == []
    assert findings(check, {"run.sh": masked}) == []  # no model named: the arguments carry the launch


def test_hydra_overrides_after_the_forwarded_arguments_are_final(check) -> None:
    script = (
        'python3 -m verl.trainer.main_ppo "$@" \\\n'
        "    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\\n"
        "    actor_rollout_ref.rollout.name=vllm \\\n"
        "    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \\\n"
        "    actor_rollout_ref.rollout.top_k=0 trainer.val_before_train=False trainer.test_freq=-1\n"
    )
    found = findings(check, {"run.sh": script})
    assert codes(found) == ["RPL102"]
    assert "`actor_rollout_ref.rollout.top_k=0` in a request to a replay engine: vLLM" in found[0][2]  # written: no caveat


# -- SkyRL: uv run ... -m skyrl.train.entrypoints.main_base ... $@ --------------------------------

SKYRL = """\
set -x

# Colocated GRPO training+generation for Qwen2.5-0.5B-Instruct on GSM8K.
DATA_DIR="$HOME/data/gsm8k"
NUM_GPUS=4
LOGGER="wandb"  # change to "console" to print to stdout
: "${{INFERENCE_BACKEND:=vllm}}"

uv run --isolated --extra $INFERENCE_BACKEND -m skyrl.train.entrypoints.main_base \\
  data.train_data="['$DATA_DIR/train.parquet']" \\
  data.val_data="['$DATA_DIR/validation.parquet']" \\
  trainer.algorithm.advantage_estimator="grpo" \\
  trainer.policy.model.path="Qwen/Qwen2.5-0.5B-Instruct" \\
  trainer.placement.colocate_all=true \\
  generator.inference_engine.num_engines=$NUM_GPUS \\
  generator.inference_engine.tensor_parallel_size=1 \\
  generator.inference_engine.backend=$INFERENCE_BACKEND \\
  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\
{fixed}  trainer.logger="$LOGGER" \\
  $@
"""
SKYRL_FIXED = """\
  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \\
  generator.sampling_params.top_k=50 \\
  generator.eval_sampling_params.top_k=50 \\
  generator.eval_sampling_params.temperature=1.0 \\
"""


def test_skyrl_script_without_logprobs_mode_fails_as_written(check) -> None:
    found = findings(check, {"run.sh": SKYRL.format(fixed="")})
    assert sorted(codes(found)) == ["RPL003", "RPL101", "RPL102", "RPL102"]
    rpl003 = next(message for code, _, message in found if code == "RPL003")
    # The backend is vLLM only when INFERENCE_BACKEND is unset: `: "${INFERENCE_BACKEND:=vllm}"`.
    assert (
        "without logprobs_mode, which defaults to 'raw_logprobs' (when `INFERENCE_BACKEND` is unset, unless the script's arguments set it)"
        in rpl003
    )
    assert all("when `INFERENCE_BACKEND` is unset" in message for _, _, message in found)


def test_skyrl_script_with_everything_fixed_is_clean(check) -> None:
    assert findings(check, {"run.sh": SKYRL.format(fixed=SKYRL_FIXED)}) == []


def test_a_backend_the_script_sets_is_not_a_default(check) -> None:
    script = SKYRL.format(fixed="").replace(': "${INFERENCE_BACKEND:=vllm}"', 'INFERENCE_BACKEND="sglang"')
    assert findings(check, {"run.sh": script}) == []


@pytest.mark.parametrize("unread", ["source ./env.sh", 'eval "$(conda shell.bash hook)"'])
def test_text_we_cannot_read_may_set_the_variable(check, unread: str) -> None:
    script = SKYRL.format(fixed="").replace("set -x\n", f"set -x\n{unread}\n")
    assert findings(check, {"run.sh": script}) == []


# -- NeMo-RL: uv run examples/run_grpo.py --config ... $@ ----------------------------------------

NEMO_MAIN_PIN = "nemo-rl @ git+https://github.com/NVIDIA-NeMo/RL@7ea279abfbeb698b092856d0dab61e7cf39bc909\n"
NEMO_CONFIG = """\
policy:
  model_name: "Qwen/Qwen2.5-1.5B"
  generation:
    backend: "vllm"
    temperature: 1.0
    top_k: 50
    vllm_cfg:
      tensor_parallel_size: 1
{mode}    vllm_kwargs: {{}}
"""
NEMO = """\
#!/bin/bash
set -eou pipefail
uv run examples/run_grpo.py --config examples/configs/grpo_replay.yaml \\
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \\
    cluster.gpus_per_node=2 \\
    "$@"
"""


def test_nemo_rl_main_without_logprobs_mode_is_judged_as_written(tmp_path: Path) -> None:
    files = {"run.sh": NEMO, "requirements.txt": NEMO_MAIN_PIN, "examples/configs/grpo_replay.yaml": NEMO_CONFIG.format(mode="")}
    found = check_with_pins(tmp_path, files, "run.sh").findings  # the pin chooses NeMo-RL main
    assert [f.code for f in found] == ["RPL003"]
    assert CAVEAT + ": vLLM" in found[0].message


def test_nemo_rl_main_with_processed_logprobs_is_clean(tmp_path: Path) -> None:
    config = NEMO_CONFIG.format(mode="      logprobs_mode: processed_logprobs\n")
    files = {"run.sh": NEMO, "requirements.txt": NEMO_MAIN_PIN, "examples/configs/grpo_replay.yaml": config}
    assert check_with_pins(tmp_path, files, "run.sh").findings == []


# -- vLLM's own launchers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "script",
    [
        'exec vllm serve Qwen/Qwen3-8B --return-sampling-mask "$@"\n',
        "vllm serve Qwen/Qwen3-8B --return-sampling-mask $*\n",
        'vllm serve Qwen/Qwen3-8B --return-sampling-mask "${@}"\n',
        'vllm serve "$1" --return-sampling-mask "${@:2}"\n',
        'MODEL="$1"\nshift\nvllm serve "$MODEL" --return-sampling-mask "$@"\n',
        'vllm serve "$@" Qwen/Qwen3-8B --return-sampling-mask\n',  # before the script's own words
        'python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --return-sampling-mask "$@"\n',
        'serve() {\n  vllm serve Qwen/Qwen3-8B --return-sampling-mask "$@"\n}\nserve "$@"\n',
    ],
)
def test_vllm_launch_that_names_its_model_is_judged_without_its_arguments(check, script: str) -> None:
    found = findings(check, {"run.sh": "#!/bin/bash\n" + script})
    assert sorted(codes(found)) == ["RPL003", "RPL301"]
    messages = dict((code, message) for code, _, message in found)
    assert "`--return-sampling-mask` without logprobs_mode, which defaults to 'raw_logprobs' " + CAVEAT + ": vLLM" in messages["RPL003"]
    assert "without --enable-scale-out" in messages["RPL301"] and CAVEAT in messages["RPL301"]


@pytest.mark.parametrize(
    "script",
    [
        'exec vllm serve "$@" --return-sampling-mask\n',  # no model named: a wrapper
        'CMD="vllm serve"\n$CMD "$@" --return-sampling-mask\n',
        "vllm serve $1 --return-sampling-mask\n",  # unquoted: the model may be any number of words
        'vllm serve Qwen/Qwen3-8B --return-sampling-mask "$*"\n',  # one word of them all
        'vllm serve Qwen/Qwen3-8B --return-sampling-mask $EXTRA_ARGS "$@"\n',  # open-ended anyway
        # a function nobody calls: its arguments are not the script's
        'serve() {\n  vllm serve Qwen/Qwen3-8B --return-sampling-mask "$@"\n}\n',
    ],
)
def test_launch_whose_arguments_may_carry_it_stays_open_ended(check, script: str) -> None:
    assert findings(check, {"run.sh": "#!/bin/bash\n" + script}) == []


def test_settings_written_after_the_arguments_are_final(check) -> None:
    script = '#!/bin/bash\nvllm serve Qwen/Qwen3-8B "$@" --return-sampling-mask --logprobs-mode raw_logprobs --enable-scale-out\n'
    found = findings(check, {"run.sh": script})
    assert codes(found) == ["RPL003"] and CAVEAT not in found[0][2]
    fixed = '#!/bin/bash\nvllm serve Qwen/Qwen3-8B "$@" --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n'
    assert findings(check, {"run.sh": fixed}) == []


def test_fix_inserts_the_setting_before_the_arguments(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text('#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out "$@"\n')
    assert main(["check", "--no-cache", "--fix", "--quiet", str(script)]) == 0
    fixed = '#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out "$@"\n'
    assert script.read_text() == fixed


# -- defaults in parameter expansions --------------------------------------------------------


def test_unquoted_model_default_makes_the_launch_complete_when_unset(check) -> None:
    for spelling in (
        "vllm serve ${MODEL:-Qwen/Qwen3-8B}",
        "MODEL=${MODEL:-Qwen/Qwen3-8B}\nvllm serve $MODEL",
        "vllm serve ${MODEL-Qwen/Qwen3-8B}",
    ):
        script = f"#!/bin/bash\n{spelling} --return-sampling-mask --logits-processors my_plugin.Processor --enable-scale-out\n"
        found = {code: message for code, _, message in findings(check, {"run.sh": script})}
        assert sorted(found) == ["RPL001", "RPL003"], spelling
        assert "defaults to 'raw_logprobs' (when `MODEL` is unset): vLLM" in found["RPL003"]
        assert "when" not in found["RPL001"]  # written in the command: it does not rest on MODEL


def test_quoted_model_default_changes_no_finding(check) -> None:
    script = '#!/bin/bash\nvllm serve "${MODEL:-Qwen/Qwen3-8B}" --return-sampling-mask --enable-scale-out\n'
    found = findings(check, {"run.sh": script})
    assert codes(found) == ["RPL003"] and "when" not in found[0][2]  # one word either way


def test_a_setting_given_by_a_default_says_so(check) -> None:
    script = (
        "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode ${LOGPROBS_MODE:-raw_logprobs} --enable-scale-out\n"
    )
    found = findings(check, {"run.sh": script})
    assert codes(found) == ["RPL003"]
    assert (
        "`--logprobs-mode ${LOGPROBS_MODE:-raw_logprobs}` with `--return-sampling-mask` (when `LOGPROBS_MODE` is unset): vLLM"
        in found[0][2]
    )


def test_a_variable_the_script_sets_has_its_value(check) -> None:
    script = "#!/bin/bash\nLOGPROBS_MODE=raw_logprobs\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode ${LOGPROBS_MODE:-processed_logprobs} --enable-scale-out\n"
    found = findings(check, {"run.sh": script})
    assert codes(found) == ["RPL003"] and "when" not in found[0][2]
    # set on one path only: on the other it may come from the environment, and nothing is taken
    branch = '#!/bin/bash\nif [ -n "$FAST" ]; then MODE=raw_logprobs; fi\nvllm serve m --return-sampling-mask --logprobs-mode ${MODE:-raw_logprobs}\n'
    assert [message for _, _, message in findings(check, {"run.sh": branch}) if "when `MODE`" in message] == []


ENGINE = """\
set -x
ENGINE=${{1:-vllm}}

python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-VL-7B-Instruct \\
    actor_rollout_ref.rollout.name=$ENGINE \\
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \\
    actor_rollout_ref.rollout.top_k=50 \\
    trainer.val_before_train=False \\
    trainer.test_freq={test_freq} $@
"""


def test_engine_from_the_first_argument_with_a_default(check) -> None:
    found = findings(check, {"run.sh": ENGINE.format(test_freq=5)})
    assert sorted(codes(found)) == ["RPL101", "RPL102"]
    for _, _, message in found:
        # Run without arguments, it forwards none: the condition says it all.
        assert "(verl 0.9.1's default)` in a request to a replay engine (when the script is run without arguments): vLLM" in message
    assert findings(check, {"run.sh": ENGINE.format(test_freq=-1)}) == []


def test_defaults_do_not_decide_tests(check) -> None:
    # `[ "${DEBUG:-0}" = 1 ]`: both branches are followed, as for any value the script does not set.
    script = (
        "#!/bin/bash\n"
        'if [ "${DEBUG:-0}" = 1 ]; then\n'
        "  ARGS=(--logits-processors my_plugin.Debug)\n"
        "else\n"
        "  ARGS=()\n"
        "fi\n"
        'vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out "${ARGS[@]}"\n'
    )
    assert codes(findings(check, {"run.sh": script})) == ["RPL001"]


# -- the configuration key -------------------------------------------------------------------


def test_configuration_key_is_validated_and_fingerprinted() -> None:
    config = Config()
    apply_override(config, 'forwarded-arguments = "open"')
    assert config.forwarded_arguments == "open"
    assert config.fingerprint() != Config().fingerprint()
    with pytest.raises(ConfigError, match='`forwarded-arguments` must be "as-written" or "open", not \'closed\''):
        apply_override(Config(), 'forwarded-arguments = "closed"')


def test_configuration_key_from_the_file_and_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "serve.sh").write_text('#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --return-sampling-mask "$@"\n')
    (tmp_path / "replaylint.toml").write_text('forwarded-arguments = "open"\n')
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["check", "--no-cache", "serve.sh"]) == 0
        assert main(["check", "--no-cache", "--config", 'forwarded-arguments = "as-written"', "serve.sh"]) == 1
        (tmp_path / "replaylint.toml").write_text('forwarded-arguments = "sometimes"\n')
        assert main(["check", "--no-cache", "serve.sh"]) == 2
    finally:
        os.chdir(cwd)
    assert "`forwarded-arguments` must be" in capsys.readouterr().err


def test_only_the_defaults_that_complete_the_launch_are_named(check) -> None:
    script = '#!/bin/bash\nMODEL=${MODEL:-Qwen/Qwen3-8B}\nPORT=${PORT:-8000}\nvllm serve $MODEL --port "$PORT" --return-sampling-mask\n'
    found = findings(check, {"run.sh": script})
    assert codes(found) == ["RPL003", "RPL301"]
    assert all("(when `MODEL` is unset): vLLM" in message for _, _, message in found)  # "$PORT" is one word whatever it holds


def test_inference_backend_default_selects_verls_vllm_rollout(check) -> None:
    script = VERL.format(fixed="").replace("set -x\n", 'set -x\n: "${INFERENCE_BACKEND:=vllm}"\n')
    script = script.replace("actor_rollout_ref.rollout.name=vllm", "actor_rollout_ref.rollout.name=$INFERENCE_BACKEND")
    found = findings(check, {"run.sh": script})
    assert sorted(codes(found)) == ["RPL101", "RPL102", "RPL102"]
    assert all("(when `INFERENCE_BACKEND` is unset, unless the script's arguments set it): vLLM" in message for _, _, message in found)
    sglang = script.replace(': "${INFERENCE_BACKEND:=vllm}"', ': "${INFERENCE_BACKEND:=sglang}"')
    assert findings(check, {"run.sh": sglang}) == []
