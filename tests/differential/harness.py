"""One differential batch: generate, judge with the real vLLM, scan every rendering, compare.

The judge runs once per batch, in its own process and virtualenv, while this process renders
and scans the same cases (the machine has two cores). Usable from pytest
(`test_differential.py`) and as a script:

    .venv/bin/python -m tests.differential.harness --cases 1000 --seed 1 [--release 0.31.0 --vllm-path DIR]
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.vllm.releases import parse_release

from .generator import Case, generate
from .oracle import Disagreement, Expectation, compare, expect, known_gap
from .render import Rendering, renderings

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
JUDGE = HERE / "vllm_judge.py"
DEFAULT_JUDGE_PYTHON = REPO / ".venv-judge" / "bin" / "python"


def judge_python() -> Path:
    return Path(os.environ.get("REPLAYLINT_JUDGE_PYTHON", DEFAULT_JUDGE_PYTHON))


@dataclass
class Scan:
    case: Case
    rendering: Rendering
    errors: list[str]
    warnings: list[str]
    internal_error: str | None
    seconds: float


@dataclass
class Outcome:
    scan: Scan
    verdict: dict
    expectation: Expectation
    disagreement: Disagreement | None
    known_gap: str | None = None


@dataclass
class Batch:
    release: str
    cases: list[Case]
    outcomes: list[Outcome] = field(default_factory=list)
    judge_seconds: float = 0.0
    scan_seconds: float = 0.0
    total_seconds: float = 0.0
    judge_stderr_tail: str = ""

    @property
    def disagreements(self) -> list[Outcome]:
        return [outcome for outcome in self.outcomes if outcome.disagreement is not None]

    @property
    def known_gaps(self) -> list[Outcome]:
        return [outcome for outcome in self.outcomes if outcome.known_gap is not None]


class Judge:
    """The real vLLM in its own process: cases in on stdin, verdicts out on stdout."""

    def __init__(self, release: str, vllm_path: str | None, workdir: Path) -> None:
        self.input = workdir / "cases.jsonl"
        self.output = workdir / "verdicts.jsonl"
        self.errors = workdir / "judge.stderr"
        self.command = [str(judge_python()), str(JUDGE), "--quiet", "--release", release]
        if vllm_path:
            self.command += ["--vllm-path", vllm_path]
        self.process: subprocess.Popen | None = None
        self.started = 0.0

    def start(self, cases: list[Case]) -> None:
        with self.input.open("w") as handle:
            for case in cases:
                for line in case.judge_cases():
                    handle.write(json.dumps(line) + "\n")
        self.started = time.perf_counter()
        with self.input.open() as stdin, self.output.open("w") as stdout, self.errors.open("w") as stderr:
            self.process = subprocess.Popen(self.command, stdin=stdin, stdout=stdout, stderr=stderr, cwd=REPO)

    def stop(self) -> None:
        """End the judge if it still runs (this side failed first)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def verdicts(self, timeout: float = 900) -> tuple[dict[str, dict], float, str]:
        assert self.process is not None
        code = self.process.wait(timeout=timeout)
        seconds = time.perf_counter() - self.started
        stderr = self.errors.read_text(errors="replace")
        if code != 0:
            raise RuntimeError(f"the judge exited with {code}:\n{stderr[-3000:]}")
        verdicts = {}
        for line in self.output.read_text().splitlines():
            verdict = json.loads(line)
            verdicts[verdict["id"]] = verdict
        return verdicts, seconds, stderr.strip().splitlines()[-1] if stderr.strip() else ""


def checker(release: str) -> Checker:
    return Checker(Config(target_vllm=parse_release(release), target_vllm_forced=True))


def scan(check: Checker, case: Case, rendering: Rendering, root: Path) -> Scan:
    # Files are not written: every rendering is self-contained (no --config files).
    path = str(root / case.id / rendering.filename)
    started = time.perf_counter()
    result = check.check_bytes(path, rendering.text.encode())
    seconds = time.perf_counter() - started
    errors = [f"{f.code} {f.message}" for f in result.findings if f.severity == "error"]
    warnings = [f"{f.code} {f.message}" for f in result.findings if f.severity != "error"]
    return Scan(case, rendering, errors, warnings, result.internal_error, seconds)


def run_batch(count: int, seed: int, release: str = "0.33.0", vllm_path: str | None = None) -> Batch:
    started = time.perf_counter()
    cases = generate(count, seed, release)
    batch = Batch(release, cases)
    with tempfile.TemporaryDirectory(prefix="replaylint-differential-") as tmp:
        workdir = Path(tmp)
        judge = Judge(release, vllm_path, workdir)
        judge.start(cases)
        try:
            check = checker(release)
            scan_started = time.perf_counter()
            scans = [scan(check, case, rendering, workdir) for case in cases for rendering in renderings(case, release)]
            batch.scan_seconds = time.perf_counter() - scan_started
            verdicts, batch.judge_seconds, batch.judge_stderr_tail = judge.verdicts()
        finally:
            judge.stop()
    for item in scans:
        verdict = verdicts[f"{item.case.id}/{item.rendering.form}"]
        expectation = expect(verdict, item.case.asks_for_replay(item.rendering.form))
        disagreement = compare(expectation, item.errors, item.internal_error)
        gap = known_gap(expectation, item.rendering.text, item.case.model) if disagreement else None
        batch.outcomes.append(Outcome(item, verdict, expectation, None if gap else disagreement, gap))
    batch.total_seconds = time.perf_counter() - started
    return batch


# -- reporting ------------------------------------------------------------------------------------

def describe(outcome: Outcome) -> str:
    scan, verdict = outcome.scan, outcome.verdict
    assert outcome.disagreement is not None
    vllm = "accepts" if verdict.get("ok") else f"{verdict.get('phase')} {verdict.get('exception')}: {verdict.get('message')}"
    lines = [
        f"=== {scan.case.id} [{scan.rendering.kind}] {outcome.disagreement.problem}",
        f"tags: {' '.join(scan.case.tags)}",
        f"argv: {json.dumps(scan.case.argv)}  env: {json.dumps(scan.case.env)}",
        f"kwargs: {json.dumps(scan.case.kwargs, default=str)}" if scan.rendering.form == "kwargs" else "",
        f"--- {scan.rendering.filename}",
        scan.rendering.text.rstrip(),
        f"--- vLLM on {verdict.get('id')}: {vllm}",
        f"--- expected: {outcome.expectation.outcome} ({outcome.expectation.label}) {list(outcome.expectation.fragments)}",
        "--- replaylint errors:",
        *(f"  {error}" for error in scan.errors),
        *(f"  (warning) {warning}" for warning in scan.warnings),
        f"--- {outcome.disagreement.detail}",
    ]
    return "\n".join(line for line in lines if line != "")


def summary(batch: Batch) -> str:
    by_kind: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    labels: collections.Counter = collections.Counter()
    for outcome in batch.outcomes:
        by_kind[outcome.scan.rendering.kind][outcome.expectation.outcome] += 1
        by_kind[outcome.scan.rendering.kind]["disagree"] += outcome.disagreement is not None
        labels[(outcome.expectation.outcome, outcome.expectation.label)] += 1
    scans = len(batch.outcomes)
    lines = [
        f"vLLM {batch.release}: {len(batch.cases)} cases, {scans} scans, "
        f"{len(batch.disagreements)} disagreements; judge {batch.judge_seconds:.1f} s "
        f"({batch.judge_stderr_tail}); scans {batch.scan_seconds:.1f} s "
        f"({batch.scan_seconds / max(scans, 1) * 1000:.1f} ms each); total {batch.total_seconds:.1f} s",
    ]
    for kind, counter in sorted(by_kind.items()):
        counts = "  ".join(f"{outcome} {counter[outcome]:>5}" for outcome in ("accept", "replay", "other", "disagree"))
        lines.append(f"  {kind:<11} {counts}")
    gaps = collections.Counter(outcome.known_gap for outcome in batch.known_gaps)
    for gap, number in gaps.items():
        lines.append(f"  known gap ({number} scans): {gap}")
    lines.append("  vLLM's verdicts (all renderings):")
    for (outcome, label), number in sorted(labels.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"    {number:>5}  {outcome:<6} {label}")
    return "\n".join(lines)


def other_share(batch: Batch) -> float:
    others = sum(outcome.expectation.outcome == "other" for outcome in batch.outcomes)
    return others / max(len(batch.outcomes), 1)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--release", default="0.33.0")
    parser.add_argument("--vllm-path")
    parser.add_argument("--show", type=int, default=20, help="print at most this many disagreements")
    args = parser.parse_args(argv)
    batch = run_batch(args.cases, args.seed, args.release, args.vllm_path)
    for outcome in batch.disagreements[: args.show]:
        print(describe(outcome), end="\n\n")
    print(summary(batch))
    return 1 if batch.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
