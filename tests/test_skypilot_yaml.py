"""SkyPilot task YAML (`run:` with `resources:`): the variables SkyPilot sets when it runs the task
that the task itself decides. `SKYPILOT_NUM_GPUS_PER_NODE` is the count of `resources.accelerators`
(skypilot-org/skypilot `llm/vllm/service.yaml`: `--tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE`
with `accelerators: {L4, A10g, ...}`), so a launch that reads it is no longer open-ended; candidates
that disagree, a count not written as a number, and `setup:` (which SkyPilot does not give it) leave
it unknown, and rules that depend on an absence stay silent there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

TASK = (
    "envs:\n"  # 1
    "  MODEL_NAME: meta-llama/Meta-Llama-3-8B-Instruct\n"  # 2
    "resources:\n"  # 3
    "  accelerators: {accelerators}\n"  # 4
    "  ports: 8000\n"  # 5
    "{more}"  # 6
    "run: |\n"  # 6 + more
    "  vllm serve $MODEL_NAME \\\n"
    "    --tensor-parallel-size {tp} \\\n"
    "    --enable-scale-out --return-sampling-mask{mode}\n"
)
MASK_LINE = 9


def task(accelerators: str = "{L4, A10g, A100-80GB}", tp: str = "$SKYPILOT_NUM_GPUS_PER_NODE", mode: str = "", more: str = "") -> str:
    return TASK.replace("{accelerators}", accelerators).replace("{tp}", tp).replace("{mode}", mode).replace("{more}", more)


@pytest.mark.parametrize(
    "accelerators",
    ["{L4, A10g, A100-80GB}", "L4:1", "A100:8", "A100", "[H100:8, A100-80GB:8]", "{A100: 4, H100: 4}", "{A100:4, H100:4}", "A100:0.5"],
)
def test_the_gpus_per_node_come_from_the_tasks_accelerators(tmp_path: Path, accelerators: str) -> None:
    assert check(tmp_path, {"service.yaml": task(accelerators)}) == [("service.yaml", MASK_LINE, "RPL003")]


def test_the_number_of_nodes_and_the_one_nodes_rank(tmp_path: Path) -> None:
    files = {"task.yaml": task(tp="$SKYPILOT_NUM_NODES --data-parallel-rank $SKYPILOT_NODE_RANK", more="num_nodes: 1\n")}
    assert check(tmp_path, files) == [("task.yaml", MASK_LINE + 1, "RPL003")]


def test_any_of_candidates_take_the_top_levels_accelerators(tmp_path: Path) -> None:
    more = "  any_of:\n    - cloud: aws\n    - cloud: gcp\n      accelerators: L4:4\n"
    text = task("L4:4").replace("  ports: 8000\n", "  ports: 8000\n" + more)
    assert check(tmp_path, {"task.yaml": text}) == [("task.yaml", MASK_LINE + 4, "RPL003")]


@pytest.mark.parametrize(
    "text",
    [
        task(mode=" --logprobs-mode processed_logprobs"),  # nothing wrong
        task("{A100:4, H100:8}"),  # the candidates disagree: any words may stand there
        task("A100:$GPUS"),  # not a number
        task(tp="$SKYPILOT_NODE_RANK", more="num_nodes: 2\n"),  # a rank of several nodes
        task().replace("run: |", "setup: |"),  # `setup` is not given it (and is no SkyPilot task without `run`)
        task().replace("resources:\n  accelerators: {L4, A10g, A100-80GB}\n  ports: 8000\n", ""),  # not a task: no `resources`
    ],
    ids=["processed", "disagreeing", "not-a-number", "rank-of-several", "setup", "no-resources"],
)
def test_an_unknown_count_keeps_the_launch_open(tmp_path: Path, text: str) -> None:
    assert check(tmp_path, {"task.yaml": text}) == []


def test_the_tasks_own_envs_entry_stands(tmp_path: Path) -> None:
    text = task().replace("envs:\n", "envs:\n  SKYPILOT_NUM_GPUS_PER_NODE:  # given at `sky launch --env`\n")
    assert check(tmp_path, {"task.yaml": text}) == []
