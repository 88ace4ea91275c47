"""`preflight --judge`: which launches vLLM's own parser is asked about, how its verdict is set
beside replaylint's findings, and (where the differential's judge venv exists) the real vLLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.model import Plugin, Span
from replaylint.preflight.judge import Verdict, compare, serve_arguments
from replaylint.preflight.script import launch_script
from replaylint.vllm import messages
from replaylint.vllm.releases import parse_release

REPO = Path(__file__).resolve().parent.parent
JUDGE_PYTHON = Path(os.environ.get("REPLAYLINT_JUDGE_PYTHON", REPO / ".venv-judge" / "bin" / "python"))
ASK_VLLM = REPO / "src" / "replaylint" / "preflight" / "ask_vllm.py"
DIFFERENTIAL_JUDGE = REPO / "tests" / "differential" / "vllm_judge.py"


@pytest.mark.parametrize(
    ("words", "arguments"),
    [
        (["vllm", "serve", "m", "--return-sampling-mask"], ["m", "--return-sampling-mask"]),
        (["/opt/venv/bin/vllm", "serve", "m"], ["m"]),
        (["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m"], ["--model", "m"]),
        (["vllm", "bench", "serve"], None),
        (["python", "-m", "verl.trainer.main_ppo"], None),
        (["/start.sh", "-m", "vllm.entrypoints.openai.api_server"], None),
    ],
)
def test_serve_arguments(words: list[str], arguments: list[str] | None) -> None:
    assert serve_arguments(words) == arguments


def _findings(words: list[str], release: str = "0.33.0", plugins: tuple[Plugin, ...] = (), env: dict[str, str] | None = None) -> list:
    config = Config()
    config.target_vllm, config.target_vllm_forced = parse_release(release), True

    class Installed:
        def __call__(self, path: str) -> None:
            return None

        def plugins(self, path: str) -> tuple[Plugin, ...]:
            return plugins

    return Checker(config, project_pins=Installed()).check_text("<launch>", launch_script(words, env or {}), "shell").findings  # type: ignore[arg-type]


REPLAY = ["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]


def test_agreement_on_a_refusal() -> None:
    findings = _findings(["vllm", "serve", "m", "--return-sampling-mask"])
    agree, said = compare(Verdict(False, messages.REQUIRES_PROCESSED_LOGPROBS, "config", "0.33.0", 9.5), findings)
    assert agree and "vLLM 0.33.0 refuses the launch (config)" in said and "replaylint predicted it" in said
    assert "asked in 9.5 s" in said


def test_a_refusal_replaylint_missed_is_a_disagreement() -> None:
    agree, said = compare(Verdict(False, messages.REQUIRES_V2, "config", "0.33.0"), _findings(REPLAY))
    assert not agree and "disagreement: replaylint predicted instead:\n  nothing" in said


def test_a_predicted_refusal_vllm_does_not_make_is_a_disagreement() -> None:
    findings = _findings(["vllm", "serve", "m", "--return-sampling-mask"])
    agree, said = compare(Verdict(True, version="0.33.0"), findings)
    assert not agree and "disagreement: replaylint predicts that vLLM refuses it" in said and "RPL003" not in said
    assert "processed_logprobs" in said  # replaylint's verdict is printed beside vLLM's


def test_a_plugin_vllm_never_checks_is_no_disagreement() -> None:
    plugin = Plugin(
        "ban", "ban_words:BanWords", Span("entry_points.txt", 2, 1, 2, 25, 10, 34), "installed in this environment by ban-words 1.0"
    )
    findings = _findings(REPLAY, plugins=(plugin,))
    assert [finding.code for finding in findings] == ["RPL001"]
    agree, said = compare(Verdict(True, version="0.33.0"), findings)
    assert agree and said.startswith("vLLM 0.33.0 accepts the launch")


def test_a_warning_predicts_no_refusal() -> None:
    # RPL301: vLLM accepts a replay server without --enable-scale-out; the masks are only lost.
    findings = _findings(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])
    assert [(finding.code, finding.severity) for finding in findings] == [("RPL301", "warning")]
    agree, said = compare(Verdict(True, version="0.33.0"), findings)
    assert agree and "disagreement" not in said


def test_argparse_words_are_compared_without_the_option_prefix() -> None:
    words = ["vllm", "serve", "m", "--return-sampling-mask=true", "--logprobs-mode", "processed_logprobs"]
    message = "argument --return-sampling-mask/--no-return-sampling-mask: ignored explicit argument 'true'"
    agree, _ = compare(Verdict(False, message, "argparse"), _findings(words))
    assert agree


def test_a_reason_replaylint_does_not_check_is_no_disagreement() -> None:
    agree, said = compare(Verdict(False, "Failed to infer device type", "config"), _findings(REPLAY))
    assert agree and "a reason replaylint does not check" in said


def test_stand_in_models_keep_their_names_inside_the_folder(tmp_path: Path) -> None:
    """The judge writes a stand-in `config.json` for each model a launch names: its path ends
    with the name (vLLM's name heuristics see `eagle3`), and a hostile name stays inside."""
    from replaylint.preflight.ask_vllm import STAND_IN_CONFIG, stand_in_model

    root = tmp_path / "models"
    draft = Path(stand_in_model(str(root), "org/EAGLE3-draft"))
    assert draft.parts[-2:] == ("org", "EAGLE3-draft") and draft.is_relative_to(root)
    assert json.loads((draft / "config.json").read_text()) == STAND_IN_CONFIG
    moe = Path(stand_in_model(str(root), "org/EAGLE3-draft", {"model_type": "mixtral"}))
    assert moe != draft and json.loads((moe / "config.json").read_text())["model_type"] == "mixtral"
    for hostile in ("../../outside", "/etc/passwd/x", "a/../../../outside"):
        assert Path(stand_in_model(str(root), hostile)).resolve().is_relative_to(root.resolve())
    assert not (tmp_path / "outside").exists()
    assert stand_in_model(str(root), str(tmp_path)) == str(tmp_path)  # a local model folder is kept


# The real vLLM ---------------------------------------------------------------------------------

needs_judge = pytest.mark.skipif(not JUDGE_PYTHON.exists(), reason="no vLLM judge venv (scripts/setup-vllm-judge.sh)")


def _serve_cases(tmp_path: Path, release: str) -> list[dict]:
    from tests.differential.generator import generate

    listed = subprocess.run(
        [str(JUDGE_PYTHON), str(DIFFERENTIAL_JUDGE), "--examples", str(tmp_path / "yaml")], capture_output=True, text=True, check=True
    )
    cases = [json.loads(line) for line in listed.stdout.splitlines()]
    cases += [line for case in generate(60, seed=28, release=release) for line in case.judge_cases()]
    # Every `vllm serve` case, with the stand-in models, GPU count and machine it emulates.
    return [case for case in cases if "argv" in case]


def _release_folder(release: str) -> str | None:
    """Where a release other than the judge venv's is installed (`pip install --no-deps
    --target`), as the differential finds it; None for the venv's own 0.33.0."""
    if release == "0.33.0":
        return None
    root = Path(os.environ.get("REPLAYLINT_VLLM_RELEASES", REPO / "bench" / ".cache" / "vllm-releases"))
    folder = root / f"vllm-{release}"
    if not folder.is_dir():
        pytest.skip(f"vLLM {release} is not installed in {root} (see tests/differential/README.md)")
    return str(folder)


@needs_judge
@pytest.mark.parametrize("release", ["0.33.0", "0.34.0"])
def test_ask_vllm_agrees_with_the_differential_judge(tmp_path: Path, release: str) -> None:
    """ask_vllm run as `--judge` runs it (by path, with `-P`, its stand-in H100 loaded beside it
    on this GPU-less machine) gives the differential judge's verdicts (the same code, imported
    there, with the differential's own process set-up) on the differential's `vllm serve`
    example cases and a batch of its generated ones."""
    folder = _release_folder(release)
    cases = _serve_cases(tmp_path, release)
    lines = "".join(json.dumps(case) + "\n" for case in cases)
    judge = [str(JUDGE_PYTHON), str(DIFFERENTIAL_JUDGE), "--quiet", "--release", release, *(["--vllm-path", folder] if folder else [])]
    theirs = subprocess.run(judge, input=lines, capture_output=True, text=True, timeout=1800)
    environ = {**os.environ, **({"PYTHONPATH": folder} if folder else {})}
    ours = subprocess.run(
        [str(JUDGE_PYTHON), "-P", str(ASK_VLLM), "--stand-in-gpu"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=tmp_path,
        env=environ,
    )
    their_verdicts = [json.loads(line) for line in theirs.stdout.splitlines()]
    our_verdicts = [json.loads(line) for line in ours.stdout.splitlines()]
    assert len(our_verdicts) == len(their_verdicts) == len(cases), ours.stderr[-2000:] + theirs.stderr[-2000:]
    assert {verdict["version"] for verdict in our_verdicts} == {release}
    differ = [
        (case["id"], theirs_, ours_)
        for case, theirs_, ours_ in zip(cases, their_verdicts, our_verdicts)
        if (theirs_["ok"], theirs_.get("message")) != (ours_["ok"], ours_.get("message"))
    ]
    assert not differ, differ
    assert len(cases) > 120


@needs_judge
def test_preflight_judge_end_to_end(tmp_path: Path) -> None:
    """`preflight --judge` where vLLM is installed: the judge venv's packages and replaylint."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    judge_site = subprocess.run(
        [str(JUDGE_PYTHON), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True
    ).stdout.strip()
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib, "judge.pth").write_text(f"import site; site.addsitedir({judge_site!r}); site.addsitedir({ours!r})\n")
    code = "import sys; from replaylint.cli.main import main; sys.exit(main(sys.argv[1:]))"
    environ = {key: value for key, value in os.environ.items() if not key.startswith(("VLLM_", "PYTHON"))}

    def preflight(*words: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        command = [str(python), "-I", "-c", code, "preflight", "--judge", "--output-format", "concise", "--", *words]
        return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env={**environ, **(env or {})}, timeout=900)

    refused = preflight("vllm", "serve", "m", "--return-sampling-mask")
    assert refused.returncode == 1, refused.stderr[-2000:]
    assert "vLLM 0.33.0 refuses the launch (config)" in refused.stdout and "replaylint predicted it" in refused.stdout
    assert "on a stand-in H100" in refused.stdout
    accepted = preflight("vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr[-2000:]
    assert "vLLM 0.33.0 accepts the launch" in accepted.stdout and "disagreement" not in accepted.stdout
