"""scripts/new_release.py on vLLM 0.33.0 -> 0.34.0, offline: the stored 0.33.0 fingerprint
against the 0.34.0 source files committed under tests/data/vllm-0.34.0 (no wheel, no network,
no judge venv)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import new_release  # noqa: E402
import vllm_fingerprint  # noqa: E402

SOURCE_0340 = ROOT / "tests" / "data" / "vllm-0.34.0"
PROJECT_TABLE_0340 = ROOT / "src" / "replaylint" / "vllm" / "data" / "cli-options-0.34.0.json"
REPLAY_CHECK = "vllm.config.vllm.VllmConfig._verify_sampling_replay_config"
VALIDATE_ENVIRON = "vllm.platforms.interface.Platform.validate_environ"


def _option_args() -> list[str]:
    """The project's 0.34.0 table (dumped from the real parser)."""
    return ["--options", str(PROJECT_TABLE_0340)]


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = new_release.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _report(source: Path = SOURCE_0340, against: str = "0.33.0") -> dict:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = new_release.main(["0.34.0", "--source", str(source), "--against", against, "--no-parser", "--json", *_option_args()])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def report() -> dict:
    """The JSON report of 0.34.0 against the stored 0.33.0 fingerprint."""
    return _report()


def _named(entries: list[dict], name: str) -> dict:
    found = [entry for entry in entries if entry["name"] == name]
    assert found, f"{name} not in {[entry['name'] for entry in entries]}"
    return found[0]


def _message(entries: list[dict], text: str) -> dict:
    found = [entry for entry in entries if entry["text"] == text]
    assert found, f"{text!r} not in {[entry['text'] for entry in entries]}"
    return found[0]


def test_the_model_runner_v2_check_left_the_replay_validator(report: dict) -> None:
    change = _named(report["units"]["changed"], REPLAY_CHECK)
    assert (change["old"], change["new"]) == ("vllm/config/vllm.py:1304", "vllm/config/vllm.py:1262")
    edits = [line for line in change["diff"] if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    assert edits == [
        "-    if not self.use_v2_model_runner:",
        "-        raise ValueError('sampling distribution replay requires Model Runner V2')",
    ]
    gone = _message(report["messages"]["removed"], "sampling distribution replay requires Model Runner V2")
    assert (gone["unit"], gone["where"]) == (REPLAY_CHECK, "vllm/config/vllm.py:1309")
    gone = _message(report["messages"]["removed"], "trace replay requires Model Runner V2")
    assert gone["where"] == "vllm/config/vllm.py:1340"


def test_runner_selection_units_removed_and_added(report: dict) -> None:
    units = report["units"]
    removed = {entry["name"]: entry["where"] for entry in units["removed"]}
    added = {entry["name"]: entry["where"] for entry in units["added"]}
    assert removed["vllm.config.vllm.VllmConfig.use_v2_model_runner"] == "vllm/config/vllm.py:731"
    assert "vllm.config.vllm.VllmConfig._validate_v1_model_runner" in removed
    assert added["vllm.config.vllm.VllmConfig._validate_model_runner"] == "vllm/config/vllm.py:3457"
    assert "vllm.config.vllm.VllmConfig._get_model_runner_unsupported_features" in added
    order = _named(units["changed"], "vllm.config.vllm.VllmConfig.__post_init__ (call order)")
    assert "+self._validate_model_runner()" in order["diff"]
    assert "-self._validate_v2_model_runner()" in order["diff"]


def test_the_runner_variable_left_envs_and_validate_environ_took_it(report: dict) -> None:
    assert "VLLM_USE_V2_MODEL_RUNNER" in report["environment_variables"]["removed"]
    entry = _named(report["units"]["removed"], "vllm.envs.environment_variables['VLLM_USE_V2_MODEL_RUNNER']")
    assert entry["where"] == "vllm/envs.py:2149"
    change = _named(report["units"]["changed"], VALIDATE_ENVIRON)
    assert change["new"] == "vllm/platforms/interface.py:1476"
    assert "+        if env == 'VLLM_USE_V2_MODEL_RUNNER':" in change["diff"]
    added = _message(
        report["messages"]["added"],
        "VLLM_USE_V2_MODEL_RUNNER={value} is no longer supported: Model Runner V1 has been removed. Unset this variable.",
    )
    assert (added["unit"], added["where"]) == (VALIDATE_ENVIRON, "vllm/platforms/interface.py:1484")


def test_options_added_in_0340(report: dict) -> None:
    options = report["options"]
    assert options["added"]["--enable-extensible-kv-cache"] == {"dest": "enable_extensible_kv_cache", "nargs": 0}
    assert "--no-enable-extensible-kv-cache" in options["added"]
    assert options["removed"] == {}
    spec_method = next(change for change in options["changed"] if change["option"] == "--spec-method")
    assert spec_method["choices"]["after"] is None and "eagle3" in spec_method["choices"]["before"]


def test_text_report_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "new_release.py"), "0.34.0", "--source", str(SOURCE_0340), "--no-parser", *_option_args()],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("vLLM 0.34.0 against 0.33.0")
    assert f"  changed  {REPLAY_CHECK}  (vllm/config/vllm.py:1304 in 0.33.0 -> vllm/config/vllm.py:1262 in 0.34.0)" in lines
    assert '  - "sampling distribution replay requires Model Runner V2"' in lines
    assert "  - VLLM_USE_V2_MODEL_RUNNER" in lines
    assert "  + --enable-extensible-kv-cache  (dest enable_extensible_kv_cache, nargs 0)" in lines
    assert "  option table: parser step skipped (--no-parser)" in lines


def test_stored_0340_fingerprint_is_what_the_code_makes_of_the_sources() -> None:
    stored = json.loads((ROOT / "docs" / "releases" / "fingerprints" / "0.34.0.json").read_text(encoding="utf-8"))
    fresh = vllm_fingerprint.fingerprint("0.34.0", new_release.Source("", root=SOURCE_0340).read).to_json()
    assert fresh.keys() == stored.keys()
    assert fresh["environment_variables"] == stored["environment_variables"]
    assert fresh["units"].keys() == stored["units"].keys()
    for name, unit in fresh["units"].items():
        kept = stored["units"][name]
        assert (unit["file"], unit["line"], unit["messages"]) == (kept["file"], kept["line"], kept["messages"]), name
        assert vllm_fingerprint.canonical(unit["text"]) == vllm_fingerprint.canonical(kept["text"]), name


def test_formatting_is_no_change_but_a_reworded_message_is(tmp_path: Path) -> None:
    tree = tmp_path / "vllm-0.34.0"
    shutil.copytree(SOURCE_0340, tree)
    config = tree / "vllm" / "config" / "vllm.py"
    text = config.read_text(encoding="utf-8")
    rewrapped = text.replace(
        '                "sampling distribution replay does not support diffusion models"\n',
        "                # reworded layout, same string\n"
        '                "sampling distribution replay "\n                "does not support diffusion models"\n',
    )
    reworded = rewrapped.replace("so there is nothing to shard", "so there is nothing to split")
    assert reworded.count("\n") == text.count("\n") + 2 and "nothing to split" in reworded
    config.write_text(reworded, encoding="utf-8")
    report = _report(tree, against="0.34.0")
    assert [change["name"] for change in report["units"]["changed"]] == ["vllm.config.vllm.VllmConfig._validate_batch_sharded_sampling"]
    assert report["units"]["added"] == report["units"]["removed"] == []
    assert [m["text"] for m in report["messages"]["removed"]] == ["tensor_parallel_size is 1, so there is nothing to shard"]
    assert [m["text"] for m in report["messages"]["added"]] == ["tensor_parallel_size is 1, so there is nothing to split"]


def test_a_wheel_is_read_like_its_extracted_tree(capsys, tmp_path: Path) -> None:
    wheel = tmp_path / "vllm-0.34.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path in SOURCE_0340.rglob("*.py"):
            archive.write(path, path.relative_to(SOURCE_0340).as_posix())
    code, out, err = _run(capsys, "0.34.0", "--wheel", str(wheel), "--against", "0.34.0", "--no-parser", "--json")
    assert code == 0, err
    units = json.loads(out)["units"]
    assert (units["added"], units["removed"], units["changed"]) == ([], [], [])
    assert units["unchanged"] == len(json.loads((ROOT / "docs/releases/fingerprints/0.34.0.json").read_text())["units"])


def test_write_stores_a_fingerprint_that_reads_back(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(new_release, "FINGERPRINTS", tmp_path)
    code, _out, err = _run(capsys, "0.34.0", "--source", str(SOURCE_0340), "--no-parser", "--write")
    assert code == 0, err
    assert (tmp_path / "0.34.0.json").is_file()
    code, out, err = _run(capsys, "0.34.0", "--source", str(SOURCE_0340), "--against", "0.34.0", "--no-parser", "--json")
    assert code == 0, err
    assert json.loads(out)["units"]["changed"] == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["0.34.0", "--source", str(SOURCE_0340), "--against", "0.1.0", "--no-parser"], "no stored fingerprint for 0.1.0"),
        (["0.34.0", "--source", "/nonexistent/tree", "--no-parser"], "expected a directory holding `vllm/`"),
        (["0.33.0", "--source", str(SOURCE_0340), "--no-parser"], "holds vllm 0.34.0, not 0.33.0"),
        (["0.34.0", "--wheel", str(PROJECT_TABLE_0340), "--no-parser"], "not a vllm 0.34.0 wheel"),
    ],
)
def test_bad_input_gets_a_message(capsys, args: list[str], says: str) -> None:
    code, _out, err = _run(capsys, *args)
    assert code == 2
    assert says in err and "Traceback" not in err


def test_a_release_that_is_not_x_y_z_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        new_release.main(["0.34", "--no-parser"])
    assert exit_info.value.code == 2
    assert "'0.34' is not a release like 0.34.0" in capsys.readouterr().err
