"""`srun` with a site's own long options (Slurm's SPANK plugins: `--quotatype=reserved` on Shanghai AI Lab's
clusters), flow round 62 (agents-x-project/PyVision-RL's verl_agents/slurm_scripts/run_serve_llm.sh): an option
written `--name=value` carries its value in its own word, so the command after it is vLLM's. Written
`--name value`, an option replaylint does not know may take the next word, and the launch stays unread."""

from __future__ import annotations

import pytest

SERVE = "vllm serve /models/Qwen2.5-72B-Instruct \\\n    --port 18901 \\\n    --tensor-parallel-size 8 \\\n"
MASK = "    --enable-scale-out \\\n    --return-sampling-mask\n"
MASK_LINE = 7


def script(srun: str, flags: str = MASK) -> str:
    return f"#!/bin/bash\n{srun} \\\n{SERVE}{flags}"


def findings(check, text: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.start_line) for f in check({"run_serve_llm.sh": text})["run_serve_llm.sh"].findings]


def test_a_site_option_with_its_value_in_the_same_word_leaves_vllm_as_the_command(check) -> None:
    srun = "srun -p eaigc1_t  --gres=gpu:8 --cpus-per-task=1 -n1 --ntasks-per-node=1 --quotatype=reserved --job-name=pyvision"
    assert findings(check, script(srun)) == [("RPL003", MASK_LINE)]


def test_the_same_launch_with_processed_logprobs_stays_clean(check) -> None:
    srun = "srun -p eaigc1_t --gres=gpu:8 --quotatype=reserved --job-name=pyvision"
    flags = "    --enable-scale-out \\\n    --return-sampling-mask \\\n    --logprobs-mode processed_logprobs\n"
    assert findings(check, script(srun, flags)) == []


@pytest.mark.parametrize(
    "srun",
    [
        "srun -p ${PARTITION} --job-name=${JOB_NAME} --gres=gpu:${GPUS_PER_NODE} --quotatype=${QUOTA_TYPE}",
        'srun --partition="$PARTITION" --quotatype="$QUOTA_TYPE" --async=false',
        "srun --exclusive=user --mem-bind=local -N1",
    ],
)
def test_values_from_variables_and_other_equals_spellings_keep_one_word(check, srun: str) -> None:
    assert findings(check, script(srun)) == [("RPL003", MASK_LINE)]


@pytest.mark.parametrize(
    "srun",
    [
        "srun -p eaigc1_t --quotatype reserved",  # may take `reserved` as its value, or be a flag
        "srun -p eaigc1_t ${SRUN_ARGS}",  # any number of words
        "srun -p eaigc1_t --$SITE_OPTION=reserved",  # which option, unknown
        "srun -p eaigc1_t -X",  # a short option we do not know
    ],
)
def test_options_that_may_take_the_next_word_leave_the_launch_unread(check, srun: str) -> None:
    assert findings(check, script(srun)) == []


def test_wrappers_without_site_options_still_stop_at_an_option_they_do_not_know(check) -> None:
    assert findings(check, script("timeout --grace=10 600")) == []
    assert findings(check, script("timeout --signal=$SIGNAL 600")) == [("RPL003", MASK_LINE)]
