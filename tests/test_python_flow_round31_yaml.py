"""Round 31's dstack cases (h31_dstack_vllm_service_*): a service's `vllm serve` folded over a
`commands:` item, its `--tensor-parallel-size $DSTACK_GPUS_NUM` a count dstack's runner sets
when the job runs (dstackai/dstack `runner/internal/executor/executor.go`). The counts the
configuration decides are read from it (`resources.gpu` as dstack's `GPUSpec` parses it,
`nodes:`), so the flags after them are judged; a count it does not decide (a range, no `gpu:`)
or one `env:` leaves to `dstack apply` keeps the launch open-ended."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.test_configuration import run

SERVICE = """type: service
name: llama31

python: "3.11"
env:
  - HF_TOKEN
  - MODEL_ID=meta-llama/Meta-Llama-3.1-8B-Instruct
commands:
  - pip install vllm
  - vllm serve $MODEL_ID
    --max-model-len 2048
    --tensor-parallel-size {tp}
    {flags}
port: 8000
model: meta-llama/Meta-Llama-3.1-8B-Instruct

resources:
  {gpu}
"""


def service(flags: str, tp: str = "$DSTACK_GPUS_NUM", gpu: str = "gpu: 24GB") -> str:
    return SERVICE.format(flags=flags, tp=tp, gpu=gpu)


def checked(tmp_path: Path, text: str, name: str = "vllm.dstack.yaml") -> list[tuple[str, int]]:
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", ".")
    assert status in (0, 1), err
    return sorted((f["code"], f["location"]["row"]) for f in json.loads(out) if os.path.basename(f["filename"]) == os.path.basename(name))


def test_the_case_the_mask_without_mode_after_the_runners_gpu_count(tmp_path: Path) -> None:
    assert checked(tmp_path, service("--enable-scale-out --return-sampling-mask")) == [("RPL003", 13)]


def test_the_case_mask_and_mode_without_scale_out(tmp_path: Path) -> None:
    assert checked(tmp_path, service("--return-sampling-mask --logprobs-mode processed_logprobs")) == [("RPL301", 13)]


def test_the_clean_twin_all_three_flags(tmp_path: Path) -> None:
    assert checked(tmp_path, service("--enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs")) == []


@pytest.mark.parametrize(
    ("tp", "gpu"),
    [
        pytest.param("${DSTACK_GPUS_NUM}", "gpu: A100:2", id="braced, a name and a count"),
        pytest.param("$DSTACK_GPUS_PER_NODE", "gpu: nvidia:80GB:8", id="vendor, memory and count"),
        pytest.param("$DSTACK_GPUS_NUM", "gpu:\n    name: [H100, A100]\n    count: 4", id="a mapping with count"),
        pytest.param("$DSTACK_GPUS_NUM", "gpu:\n    memory: 40GB..", id="a mapping without count: one GPU"),
        pytest.param("$DSTACK_GPUS_NUM", "gpu: 2", id="a number"),
        pytest.param("$DSTACK_GPUS_NUM", "gpu: 24GB:2..2", id="a range of one count"),
    ],
)
def test_the_gpu_spellings_dstack_parses(tmp_path: Path, tp: str, gpu: str) -> None:
    assert checked(tmp_path, service("--enable-scale-out --return-sampling-mask", tp, gpu)) == [("RPL003", 13)]


@pytest.mark.parametrize(
    ("tp", "gpu"),
    [
        pytest.param("$DSTACK_GPUS_NUM", "gpu: 24GB:1..2", id="a range of counts"),
        pytest.param("$DSTACK_GPUS_NUM", "cpu: 4", id="no gpu: the runner's count is not the configuration's"),
        pytest.param("$DSTACK_MASTER_NODE_IP", "gpu: 24GB", id="a variable the runner sets that no configuration decides"),
    ],
)
def test_a_count_the_configuration_does_not_decide_keeps_the_launch_open(tmp_path: Path, tp: str, gpu: str) -> None:
    assert checked(tmp_path, service("--enable-scale-out --return-sampling-mask", tp, gpu)) == []


def test_env_given_by_dstack_apply_wins_over_the_runners_count(tmp_path: Path) -> None:
    text = service("--enable-scale-out --return-sampling-mask").replace("  - HF_TOKEN\n", "  - HF_TOKEN\n  - DSTACK_GPUS_NUM\n")
    assert checked(tmp_path, text) == []


def test_one_nodes_rank_is_zero(tmp_path: Path) -> None:
    # dstack's cluster examples: `if [ $DSTACK_NODE_RANK -eq 0 ]; then ... fi` (one node: rank 0)
    text = (
        "type: task\nnodes: 1\nresources:\n  gpu: H100:8\ncommands:\n  - |\n    if [ $DSTACK_NODE_RANK -eq 0 ]; then\n"
        "      vllm serve Qwen/Qwen3-8B --tensor-parallel-size $DSTACK_GPUS_PER_NODE --return-sampling-mask --enable-scale-out\n"
        "    fi\n"
    )
    assert checked(tmp_path, text, ".dstack.yml") == [("RPL003", 8)]


def test_a_replica_groups_own_resources(tmp_path: Path) -> None:
    text = (
        "type: service\nport: 8000\nresources:\n  gpu: 1..8\nreplicas:\n  - name: policy\n    count: 1\n"
        "    resources:\n      gpu: H100:4\n    commands:\n"
        "      - vllm serve Qwen/Qwen3-8B --tensor-parallel-size $DSTACK_GPUS_NUM --return-sampling-mask --enable-scale-out\n"
    )
    assert checked(tmp_path, text, "serve.dstack.yml") == [("RPL003", 11)]


# Round 32's alpaca_eval cases read a model config's YAML as `list(configs.values())[0]`: the values of a
# mapping known whole, in order, as `list(...)` and `[i]` read them.
ENGINE = """from vllm import LLM

CONFIGS = {{
    "qwen-raw": {{"return_sampling_mask": True, "enable_prefix_caching": True}},
    "qwen-processed": {{"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}},
}}
llm = LLM("Qwen/Qwen3-8B", **list(CONFIGS.values())[{index}])
"""


@pytest.mark.parametrize(("index", "expected"), [(0, [("RPL003", 4)]), (1, [])])
def test_a_mappings_values_in_order(tmp_path: Path, index: int, expected: list[tuple[str, int]]) -> None:
    assert checked(tmp_path, ENGINE.format(index=index), "infer.py") == expected


def test_the_one_model_of_a_yaml_config_read_by_its_values(tmp_path: Path) -> None:
    # alpaca_eval's main.py: `configs = yaml.safe_load(f)`, then `model_configs = list(configs.values())[0]`
    (tmp_path / "configs.yaml").write_text("Qwen:\n  model_kwargs:\n    max_model_len: 2048\n    return_sampling_mask: true\n")
    program = (
        "from pathlib import Path\n\nimport yaml\nfrom vllm import LLM\n\n\n"
        "def main():\n    with open(Path(__file__).parent / 'configs.yaml') as f:\n        configs = yaml.safe_load(f)\n"
        "    model_configs = list(configs.values())[0]\n    return LLM(model='m', **model_configs['model_kwargs'])\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert checked(tmp_path, program, "main.py") == []  # the mask is the YAML's: reported there
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", ".")
    assert status == 1, err
    assert [(os.path.basename(f["filename"]), f["code"], f["location"]["row"]) for f in json.loads(out)] == [("configs.yaml", "RPL003", 4)]


def test_the_values_of_a_mapping_not_known_whole_stay_open(tmp_path: Path) -> None:
    text = "import sys\nfrom vllm import LLM\n\nCONFIGS = dict(sys.argv)\nllm = LLM('m', return_sampling_mask=True, **list(CONFIGS.values())[0])\n"
    assert checked(tmp_path, text, "infer.py") == []
