"""Assignments before the command in a script read again (`eval "$CMD"`, `bash -c "$CMD"`): an
unknown the outer shell can only make nothing or `NAME=value` is a prefix, not the command name
(tests/realworld_bugs.md, B9: vLLM's tests/v1/kv_connector/nixl_integration/run_accuracy_test.sh)."""

from __future__ import annotations

import pytest

from replaylint.frontends import ExtractContext, SourceFile, shell
from replaylint.model import UNKNOWN, Launch

# The shape of vLLM's run_accuracy_test.sh: a command line built in a loop, run with `eval`.
NIXL_LOOP = """\
for i in $(seq 0 $((NUM_PREFILL_INSTANCES-1))); do
  GPU_ID=$((i % 8))
  INTERNAL_PORT=$((20000 + i * 100))
  BASE_CMD="CUDA_VISIBLE_DEVICES=$GPU_ID \\
  ${PREFILLER_KV_LAYOUT:+VLLM_KV_CACHE_LAYOUT=$PREFILLER_KV_LAYOUT} \\
  VLLM_PORT=$INTERNAL_PORT \\
  UCX_NET_DEVICES=all \\
  vllm serve Qwen/Qwen3-0.6B --return-sampling-mask \\
  --port $((8100 + i))"
  FULL_CMD="$BASE_CMD"
  eval "$FULL_CMD &"
done
"""


def launches(text: str) -> list[Launch]:
    return shell.extract(SourceFile("run.sh", text), ExtractContext())


def codes(check, text: str) -> list[str]:
    return [finding.code for finding in check({"run.sh": text})["run.sh"].findings]


def test_the_smallest_reproduction_is_found_and_judged(check) -> None:
    text = 'for i in $(seq 0); do B="A=$i ${X:+Y=$X} vllm serve m --return-sampling-mask"; eval "$B"; done\n'
    assert "RPL003" in codes(check, text)


def test_vllms_eval_in_a_loop_starts_vllm_serve_with_its_prefixes() -> None:
    (launch,) = launches(NIXL_LOOP)
    assert launch.label == "vllm serve"
    assert launch.get("model").value == "Qwen/Qwen3-0.6B"
    assert launch.get("return_sampling_mask").value is True
    assert launch.get("port").value is UNKNOWN  # an arithmetic expansion: one word, not open-ended
    assert not launch.open_ended
    # `${X:+NAME=$X}` may or may not set its variable; `VLLM_PORT=$P` sets one we cannot read.
    assert launch.env["VLLM_KV_CACHE_LAYOUT"].value is UNKNOWN
    assert launch.env["VLLM_PORT"].value is UNKNOWN


def test_vllms_eval_in_a_loop_is_reported(check) -> None:
    assert "RPL003" in codes(check, NIXL_LOOP)


def test_a_string_run_by_bash_c_reads_its_prefixes_the_same_way() -> None:
    text = 'for i in $(seq 1); do C="${A:+CUDA_VISIBLE_DEVICES=$A} VLLM_PORT=$i vllm serve m --return-sampling-mask"; bash -c "$C"; A=$i; done\n'
    (launch,) = launches(text)
    assert launch.get("model").value == "m"


def test_a_quoted_operand_is_a_prefix_too() -> None:
    text = 'for i in $(seq 1); do X=$i; eval "${X:+"CUDA_VISIBLE_DEVICES=${X}"} vllm serve m --return-sampling-mask"; done\n'
    (launch,) = launches(text)
    assert launch.get("model").value == "m"


def test_an_optional_vllm_variable_makes_the_environment_unknown_not_absent(check) -> None:
    """The export says `0`, which vLLM 0.34.0 refuses (RPL206); the eval'd prefix may replace it."""
    exported = "export VLLM_USE_V2_MODEL_RUNNER=0\n"
    command = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
    assert "RPL206" in codes(check, exported + f'for i in $(seq 1); do X=$i; C="{command}"; eval "$C"; done\n')
    prefixed = exported + f'for i in $(seq 1); do X=$i; C="${{X:+VLLM_USE_V2_MODEL_RUNNER=$X}} {command}"; eval "$C"; done\n'
    assert "RPL206" not in codes(check, prefixed)
    (launch,) = launches(prefixed)
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value is UNKNOWN


@pytest.mark.parametrize(
    "unknown",
    [
        "$PREFIX",  # anything: `sudo`, `echo`, a wrapper with options
        "${X:-Y=1}",  # X itself when set: anything
        "${X:+--flag=$X}",  # an option, not an assignment
        "${X:+Y=$X}x",  # glued to other text
    ],
)
def test_an_unknown_that_may_be_a_command_still_hides_the_launch(unknown: str) -> None:
    text = f'for i in $(seq 1); do X=$i; PREFIX=$i; eval "{unknown} vllm serve m --return-sampling-mask"; done\n'
    assert launches(text) == []


def test_outside_a_script_read_again_the_expansion_is_the_command_name() -> None:
    """bash recognises assignments before expanding: `${X:+Y=$X} vllm serve` runs `Y=1`."""
    text = "for i in $(seq 1); do X=$i; ${X:+Y=$X} vllm serve m --return-sampling-mask; done\n"
    assert launches(text) == []


def test_assignments_spelled_differently_on_paths_past_the_world_limit_stay_prefixes() -> None:
    """vLLM's decoder: `VLLM_PORT=$P` or `VLLM_DP_MASTER_PORT=$P`, then options appended under
    four unknown tests (32 paths, more than are followed one by one: their strings are joined)."""
    appends = "".join(f'  if [[ -n "$F{n}" ]]; then C="$C --opt{n}"; fi\n' for n in range(4))
    text = (
        "for i in $(seq 1); do\n"
        '  if [[ -z "$DP_EP" ]]; then E="VLLM_PORT=$((30000 + i))"; else E="VLLM_DP_MASTER_PORT=$((30000 + i))"; fi\n'
        '  C="${L:+VLLM_KV_CACHE_LAYOUT=$L} $E UCX_NET_DEVICES=all vllm serve m --return-sampling-mask"\n' + appends + '  eval "$C &"\n'
        "done\n"
    )
    found = launches(text)
    assert found
    for launch in found:
        assert launch.get("model").value == "m"
        assert launch.env["VLLM_PORT"].value is UNKNOWN
        assert launch.env["VLLM_DP_MASTER_PORT"].value is UNKNOWN


def test_an_open_ended_launch_names_the_outer_expansions_not_placeholders() -> None:
    text = 'for i in $(seq 1); do M=$i; C="${X:+Y=$X} vllm serve $M --return-sampling-mask --attention-backend=$B"; eval "$C"; done\n'
    (launch,) = launches(text)
    assert launch.open_ended
    assert any("$B" in reason for reason in launch.open_reasons) and all("__replaylint" not in reason for reason in launch.open_reasons)


def test_a_prefix_kept_in_a_variable_and_evald_with_the_command(check) -> None:
    """`eval "$prefix vllm serve ..."` with `prefix="${1:+CUDA_VISIBLE_DEVICES=$1}"` in a helper."""
    text = (
        "start() {\n"
        '  local prefix="${1:+CUDA_VISIBLE_DEVICES=$1} ${LAYOUT:+VLLM_KV_CACHE_LAYOUT=$LAYOUT}"\n'
        '  eval "$prefix vllm serve m --return-sampling-mask &"\n'
        "}\n"
        'for g in 0 1; do start "$g"; done\n'
    )
    assert "RPL003" in codes(check, text)
