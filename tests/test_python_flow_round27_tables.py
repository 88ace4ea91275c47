"""What held-out round 27 (tests/data/python_flow/h27_*) made replaylint follow in tables of settings.

LLaVA-UHD's request presets kept in an `Enum` keyed by modality: `Preset[name]` picks the member
`Preset.NAME` does, with the name the reader knows there (a function's return, a caller's
argument); a name from run time picks none, and the request stays open.

production-stack's `--override-generation-config` of `json.dumps(DEFAULTS)`, where the dict is
grown after its literal (`DEFAULTS.update(repetition_penalty=1.1)`, `DEFAULTS[key] = value`): the
literal alone is not what the server gets. The libcst pass no longer reads a dict whose keys a
statement changes in place as its literal (it had reported the literal and missed the update, and
would report a key a later `pop` removes); the value flow's reading, with each write, stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

PRESETS = (
    "import sys\n"
    "from enum import Enum\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class Preset(Enum):\n"
    "    IMAGE = {'temperature': 0.7, 'top_p': 0.9, 'top_k': 20}\n"
    "    VIDEO = {'temperature': 0.7, 'top_p': 0.8}\n"
    "\n"
    "\n"
    "def modality(dataset):\n"
    "    return 'VIDEO' if dataset in ('MVBench', 'Video-MME') else 'IMAGE'\n"
    "\n"
    "\n"
    "def generate(llm, text, dataset=None):\n"
    "    {pick}\n"  # line 17
    "    params = SamplingParams(max_tokens=64, **preset.value)\n"  # line 18
    "    return llm.generate(text, params)\n"
    "\n"
    "\n"
    "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "generate(llm, 'p', dataset={dataset})\n"
)


def _presets(tmp_path: Path, pick: str, dataset: str = "'MVBench'") -> list[tuple[str, int, str]]:
    return check(tmp_path, {"model.py": PRESETS.replace("{pick}", pick).replace("{dataset}", dataset)})


@pytest.mark.parametrize(
    "pick",
    [
        "preset = Preset[modality(dataset)]",  # the case's spelling
        "preset = Preset['VIDEO']",
        "name = modality(dataset)\n    preset = Preset[name]",
        "preset = Preset['VIDEO' if dataset == 'MVBench' else 'IMAGE']",
    ],
)
def test_an_enum_member_picked_by_a_known_name_is_the_request_it_spreads(tmp_path: Path, pick: str) -> None:
    line = 18 + pick.count("\n")
    assert _presets(tmp_path, pick) == [("model.py", line, "RPL102")]


def test_the_member_another_dataset_picks_sets_top_k(tmp_path: Path) -> None:
    assert _presets(tmp_path, "preset = Preset[modality(dataset)]", dataset="'MMBench'") == []


@pytest.mark.parametrize(
    ("pick", "dataset"),
    [
        ("preset = Preset[modality(dataset)]", "sys.argv[1]"),  # the dataset named at run time
        ("preset = Preset[sys.argv[1]]", "'MVBench'"),  # the member named at run time
        ("preset = Preset[dataset.upper()]", "'MVBench'"),  # a name the reader does not work out
    ],
)
def test_a_member_named_at_run_time_leaves_the_request_open(tmp_path: Path, pick: str, dataset: str) -> None:
    assert _presets(tmp_path, pick, dataset) == []


SERVE = (
    "import json\n"
    "import os\n"
    "import subprocess\n"
    "\n"
    "DEFAULTS = {'temperature': 0.8, 'top_k': 40}\n"
    "{grow}\n"  # line 6
    "\n"
    "\n"
    "def build(model):\n"
    "    return ['vllm', 'serve', model, '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out',\n"
    "            '--generation-config', 'vllm', '--override-generation-config', json.dumps(DEFAULTS)]\n"
    "\n"
    "\n"
    "subprocess.run(build('m'), check=True)\n"
)


def _serve(tmp_path: Path, grow: str) -> list[tuple[str, int, str]]:
    return check(tmp_path, {"serve.py": SERVE.replace("{grow}", grow)})


@pytest.mark.parametrize(
    "grow",
    [
        "DEFAULTS.update(\n    repetition_penalty=1.1,\n)",  # the case's spelling: the keyword's own line
        "DEFAULTS['repetition_penalty'] = 1.1",
        "DEFAULTS.update({'presence_penalty': 0.5})",
        "DEFAULTS.setdefault('frequency_penalty', 0.3)",
    ],
)
def test_a_penalty_written_into_the_overrides_after_their_literal(tmp_path: Path, grow: str) -> None:
    line = 7 if grow.startswith("DEFAULTS.update(\n") else 6
    assert _serve(tmp_path, grow) == [("serve.py", line, "RPL302")]


@pytest.mark.parametrize(
    "grow",
    [
        "DEFAULTS.update(repetition_penalty=1.0)",  # neutral
        "DEFAULTS.update(json.loads(os.environ['GENERATION_DEFAULTS']))",  # from outside the tree: open
        "DEFAULTS.update({'temperature': 0.6})",
    ],
)
def test_overrides_grown_without_a_known_penalty_stay_silent(tmp_path: Path, grow: str) -> None:
    assert _serve(tmp_path, grow) == []


def test_a_penalty_the_literal_sets_and_a_later_pop_removes_is_not_reported(tmp_path: Path) -> None:
    text = SERVE.replace("{'temperature': 0.8, 'top_k': 40}", "{'temperature': 0.8, 'top_k': 40, 'repetition_penalty': 1.1}")
    assert check(tmp_path, {"serve.py": text.replace("{grow}", "DEFAULTS.pop('repetition_penalty')")}) == []
