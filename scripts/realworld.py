"""The real-world report: `python scripts/realworld.py [--release X.Y.Z] [--vllm-path DIR] [--only PROJECT]`.

Scans every file of `fixtures/realworld/` as it is (0 crashes, exactly the manifest's expected
findings, no RPL900 on a file its own tool accepts), then injects replay into every launch and
compares replaylint with what real bash and the real vLLM say (tests/realworld/harness.py).
Prints a table per project and the share of launches judged per frontend; `--details` lists
every mutant that was not judged, was open-ended or disagreed, and the inputs a script was given
to reach its launch. Exit 1 on a crash, an unexpected finding or a disagreement that
`tests/realworld/known_bugs.json` does not list. The judge is vLLM 0.34.0 where `.ci/differential`
installs it (bench/.cache/vllm-releases/vllm-0.34.0), else the judge venv's own 0.33.0.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.realworld import harness  # noqa: E402

DEFAULT_RELEASE = "0.34.0"
DEFAULT_RELEASE_PATH = REPO / "bench" / ".cache" / "vllm-releases" / f"vllm-{DEFAULT_RELEASE}"
JUDGE_VENV_RELEASE = "0.33.0"
COLUMNS = ("files", "launches", "judged", "agree", "open-ended", "disagree", "known bugs", "crashes", "time")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", help=f"the vLLM release of the judge (default {DEFAULT_RELEASE}, else {JUDGE_VENV_RELEASE})")
    parser.add_argument("--vllm-path", help="that release installed with `pip install --no-deps --target DIR`")
    parser.add_argument("--only", help="one project (or a path prefix inside the corpus)")
    parser.add_argument("--details", action="store_true", help="list every mutant that was not an agreement")
    options = parser.parse_args(argv)
    release, vllm_path = judge_release(options.release, options.vllm_path)
    report = harness.run(release, vllm_path, options.only, log=lambda m: print(m, file=sys.stderr))
    failures = unmutated_failures(report)
    print(table(report))
    print()
    print(shares(report))
    if options.details:
        print()
        print(details(report))
    disagreements = [r for r in report.results if r.outcome in ("disagree", "crash")]
    for result in disagreements:
        failures.append(f"{result.id}: {result.outcome}: {result.detail}")
    for line in failures:
        print("FAIL " + line)
    print(
        f"\nvLLM {report.release}: {len(report.entries)} files, {len(report.results)} mutants, "
        f"{len(failures)} failures; judges {report.judge_seconds:.0f} s, total {report.total_seconds:.0f} s"
    )
    return 1 if failures else 0


def judge_release(release: str | None, vllm_path: str | None) -> tuple[str, str | None]:
    """The release to judge with: the one asked for, else 0.34.0 where `.ci/differential`
    installs it, else (said on stderr) the judge venv's own release."""
    if release is not None or vllm_path is not None:
        return release or JUDGE_VENV_RELEASE, vllm_path
    if (DEFAULT_RELEASE_PATH / ".complete").exists():
        return DEFAULT_RELEASE, str(DEFAULT_RELEASE_PATH)
    print(
        f"[realworld] vLLM {DEFAULT_RELEASE} is not installed in {DEFAULT_RELEASE_PATH.relative_to(REPO)} "
        f"(.ci/differential installs it): judging with the judge venv's vLLM {JUDGE_VENV_RELEASE}",
        file=sys.stderr,
    )
    return JUDGE_VENV_RELEASE, None


def unmutated_failures(report: harness.Report) -> list[str]:
    failures = []
    for entry in report.entries:
        scan = report.scans[entry.path]
        if scan.internal_error:
            failures.append(f"{entry.path}: replaylint crashed: {scan.internal_error}")
        got = sorted((f["code"], f["line"]) for f in scan.findings)
        want = sorted((f["code"], f["line"]) for f in entry.expected_findings)
        if got != want:
            failures.append(f"{entry.path}: findings {got} differ from the manifest's {want}")
        if entry.path not in report.invalid and any(f["code"] == "RPL900" for f in scan.findings):
            failures.append(f"{entry.path}: RPL900 on a file its own tool accepts")
    return failures


def _rows(report: harness.Report):
    rows = collections.defaultdict(collections.Counter)
    for entry in report.entries:
        row = rows[entry.project]
        row["files"] += 1
        row["launches"] += report.sites[entry.path]
        row["crashes"] += bool(report.scans[entry.path].internal_error)
    judged_sites = collections.defaultdict(set)
    for result in report.results:
        row = rows[result.entry.project]
        key = {"agree": "agree", "open-ended": "open-ended", "disagree": "disagree", "known-bug": "known bugs", "crash": "crashes"}.get(
            result.outcome
        )
        if key:
            row[key] += 1
        if result.outcome not in ("not-judged",):
            judged_sites[result.entry.project].add((result.entry.path, result.mutant.site))
    for project, sites in judged_sites.items():
        rows[project]["judged"] = len(sites)
    return rows


def table(report: harness.Report) -> str:
    rows = _rows(report)
    lines = ["| project | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    total = collections.Counter()
    for project in sorted(rows):
        row = rows[project]
        total.update(row)
        seconds = report.project_seconds[project]
        lines.append(f"| {project} | " + " | ".join(str(row[c]) for c in COLUMNS[:-1]) + f" | {seconds:.1f} s |")
    lines.append("| **total** | " + " | ".join(f"**{total[c]}**" for c in COLUMNS[:-1]) + f" | **{report.total_seconds:.0f} s** |")
    lines.append("")
    lines.append(
        "launches: places that start vLLM, found by the mutator; judged: launches whose mutants reached vLLM's parser; agree / open-ended / disagree / known bugs / crashes: mutants (two per launch: the mask alone, and with `--logprobs-mode processed_logprobs`)."
    )
    return "\n".join(lines)


def shares(report: harness.Report) -> str:
    launches = collections.Counter()
    judged = collections.defaultdict(set)
    for entry in report.entries:
        launches[entry.frontend] += report.sites[entry.path]
    for result in report.results:
        if result.outcome != "not-judged":
            judged[result.entry.frontend].add((result.entry.path, result.mutant.site))
    lines = ["| frontend | launches | judged | share |", "|---|---|---|---|"]
    for frontend in sorted(launches):
        count, done = launches[frontend], len(judged[frontend])
        share = f"{100 * done / count:.0f} %" if count else "-"
        lines.append(f"| {frontend} | {count} | {done} | {share} |")
    return "\n".join(lines)


def details(report: harness.Report) -> str:
    reasons = collections.Counter()
    lines = []
    for result in report.results:
        given = sorted({launch.inputs for launch in result.launches if launch.inputs})
        if result.outcome == "agree":
            if given:
                lines.append(f"{'agree':11} {result.id} (line {result.mutant.line}): given {' | '.join(given)}")
            continue
        detail = (
            result.detail if not given or "inputs replaylint cannot see" in result.detail else f"given {' | '.join(given)}: {result.detail}"
        )
        lines.append(f"{result.outcome:11} {result.id} (line {result.mutant.line}): {detail[:400]}")
        if result.outcome == "not-judged":
            reasons[_reason_class(result.detail)] += 1
    lines.append("")
    lines.append("Not judged, by reason:")
    lines.extend(f"  {count:4} {reason}" for reason, count in reasons.most_common())
    return "\n".join(lines)


def _reason_class(detail: str) -> str:
    return detail.split(":")[0].split(";")[0][:120]


if __name__ == "__main__":
    sys.exit(main())
