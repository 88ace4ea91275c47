"""Which vLLM release judges a launch, and how findings name it (vLLM 0.34.0 and releases
replaylint has not read)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.vllm.releases import NEWEST, Release, judged

# The two launches of issue 13: both fall back to Model Runner V1 on 0.33.0 and earlier.
SCRIPT = (
    "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
    "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-dbo --enable-scale-out\n"
)


def run(folder: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["check", "--no-cache", *args])
    finally:
        os.chdir(cwd)
    return status, out.getvalue(), err.getvalue()


def project(tmp_path: Path, pin: str, script: str = SCRIPT) -> Path:
    (tmp_path / "requirements.txt").write_text(f"{pin}\n")
    (tmp_path / "s.sh").write_text(script)
    return tmp_path


def findings(folder: Path, *args: str) -> list[dict]:
    _, out, _ = run(folder, "--output-format", "json", *args)
    return json.loads(out)


def test_034_has_no_model_runner_v1_fallback(tmp_path: Path) -> None:
    found = findings(project(tmp_path, "vllm==0.34.0"))
    assert [f["code"] for f in found] == ["RPL206"]
    (error,) = found
    assert error["severity"] == "error" and error["location"] == {"row": 1, "column": 1}
    assert error["message"].endswith(
        'vLLM 0.34.0 says "VLLM_USE_V2_MODEL_RUNNER=0 is no longer supported: Model Runner V1 has been removed. Unset this variable."'
    )
    assert 'Model Runner V2"' not in error["message"]


def test_the_same_lines_pinned_to_033_fall_back_to_v1(tmp_path: Path) -> None:
    found = findings(project(tmp_path, "vllm==0.33.0"))
    assert [(f["code"], f["location"]["row"]) for f in found] == [("RPL004", 1), ("RPL004", 2)]
    assert all(f["message"].endswith('vLLM 0.33.0 says "sampling distribution replay requires Model Runner V2"') for f in found)


def test_a_range_keeps_each_releases_verdict(tmp_path: Path) -> None:
    found = findings(project(tmp_path, "vllm>=0.33"))
    by_code = {(f["code"], f["location"]["row"]): f for f in found}
    assert set(by_code) == {("RPL004", 1), ("RPL004", 2), ("RPL206", 1)}
    assert by_code["RPL004", 2]["vllm_version"] == "0.33.0" and "vLLM 0.33.0 says" in by_code["RPL004", 2]["message"]
    assert by_code["RPL206", 1]["vllm_version"] == "0.34.0"


def test_the_runner_variable_is_removed_by_the_fix_on_034(tmp_path: Path) -> None:
    folder = project(tmp_path, "vllm==0.34.0")
    status, _, _ = run(folder, "--fix")
    assert status == 0
    assert (folder / "s.sh").read_text() == SCRIPT.replace("VLLM_USE_V2_MODEL_RUNNER=0 ", "")


def test_runner_variable_set_to_one_is_a_warning_on_replay_launches_only(tmp_path: Path) -> None:
    script = (
        "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
        "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve reward-model\n"
    )
    found = findings(project(tmp_path, "vllm==0.34.0", script))
    assert [(f["code"], f["severity"], f["location"]["row"]) for f in found] == [("RPL206", "warning", 1)]
    assert "VLLM_USE_V2_MODEL_RUNNER=1 is redundant and can be unset" in found[0]["message"]


def test_a_newer_release_is_judged_by_the_newest_known_and_never_quoted(tmp_path: Path) -> None:
    folder = project(tmp_path, "vllm==0.35.0", SCRIPT + "vllm serve m --return-sampling-mask --enable-scale-out\n")
    status, out, err = run(folder, "--output-format", "concise")
    assert status == 1
    assert "vLLM 0.35.0 says" not in out and "0.35.0" in out
    assert out.count("(the launch targets vLLM 0.35.0: judged by vLLM 0.34.0's rules, the newest replaylint knows)") == 2
    notice = (
        "vLLM 0.35.0 is newer than the releases replaylint knows (0.28.0-0.34.0): launches that target it are judged by vLLM 0.34.0's rules"
    )
    assert err.count(notice) == 1  # one notice per run, however many launches


def test_json_and_sarif_carry_target_and_judging_release(tmp_path: Path) -> None:
    folder = project(tmp_path, "vllm==0.35.0")
    (finding,) = findings(folder)
    assert (finding["vllm_version"], finding["judged_by_vllm"]) == ("0.35.0", "0.34.0")
    _, out, _ = run(folder, "--output-format", "sarif")
    (result,) = json.loads(out)["runs"][0]["results"]
    assert result["properties"] == {"vllmReleases": ["0.35.0"], "judgedByVllm": ["0.34.0"]}


def test_a_patch_release_is_judged_by_its_series_and_says_so(tmp_path: Path) -> None:
    script = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-dbo --enable-scale-out\n"
    (finding,) = findings(project(tmp_path, "vllm==0.31.2", script))
    assert 'vLLM 0.31.0 says "sampling distribution replay requires Model Runner V2"' in finding["message"]
    assert finding["message"].endswith("(the launch targets vLLM 0.31.2: judged by vLLM 0.31.0's rules)")
    assert (finding["vllm_version"], finding["judged_by_vllm"]) == ("0.31.2", "0.31.0")


@pytest.mark.parametrize(
    ("target", "judge"),
    [
        ("0.34.0", "0.34.0"),
        ("0.34.1", "0.34.0"),
        ("0.35.0", str(NEWEST)),
        ("1.0.0", str(NEWEST)),
        ("0.31.2", "0.31.0"),
        ("0.27.3", "0.27.1"),
        ("0.20.0", "0.26.0"),
        ("0.28.0", "0.28.0"),
    ],
)
def test_every_release_is_judged_by_one_whose_code_was_read(target: str, judge: str) -> None:
    assert str(judged(Release.parse(target))) == judge
