"""The framework report: `python scripts/frameworks_judge.py [--release X.Y.Z] [--vllm-path DIR] [--only FRAMEWORK] [--mutations N] [--details]`.

Mutates every launch of fixtures/frameworks/ so that it turns sampling distribution replay on as
the framework's users do, runs the framework's own config-to-engine code and vLLM's checks on it
(tests/frameworks_judge/engine_judge.py in the judge virtualenv, frameworks installed by
scripts/setup-framework-judges.sh), runs `replaylint check --output-format json` on the mutants,
and prints a table per framework: files, launches, launches judged, mutants, judged, agree,
missed, false, open-ended, not judged, then why mutants were not judged. `--details` lists every
mutant that was not an agreement, with its file, mutation, truth and replaylint's answer. Then
Hydra's refusals of verl overrides, by Hydra itself (tests/frameworks_judge/hydra_words.py). Exit 1
when a framework whose code is judged has a disagreement (missed or false), or when replaylint
quotes a Hydra refusal that Hydra does not make.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.frameworks_judge import hydra_words, judging  # noqa: E402

DEFAULT_RELEASE = "0.34.0"
DEFAULT_RELEASE_PATH = REPO / "bench" / ".cache" / "vllm-releases" / f"vllm-{DEFAULT_RELEASE}"
DEFAULT_MUTATIONS = 2  # with the control and the open-ended forms: the whole run stays under 5 minutes on 2 cores
COLUMNS = ("files", "launches", "launches judged", "mutants", "judged", "agree", "missed", "false", "open-ended", "not judged")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", help=f"the vLLM release of the judge (default {DEFAULT_RELEASE})")
    parser.add_argument("--vllm-path", help="that release installed with `pip install --no-deps --target DIR`")
    parser.add_argument("--only", help="one framework (or a path prefix inside the corpus)")
    parser.add_argument("--details", action="store_true", help="list every mutant that was not an agreement")
    parser.add_argument(
        "--mutations",
        type=int,
        default=DEFAULT_MUTATIONS,
        help=f"mutations judged per launch, chosen the same on every run (default {DEFAULT_MUTATIONS}; 0: all)",
    )
    options = parser.parse_args(argv)
    release = options.release or DEFAULT_RELEASE
    vllm_path = options.vllm_path or (str(DEFAULT_RELEASE_PATH) if (DEFAULT_RELEASE_PATH / ".complete").exists() else None)
    count = options.mutations or None
    report = judging.run(release, vllm_path, options.only, log=lambda m: print(m, file=sys.stderr), count=count)
    print(table(report))
    if options.details:
        print()
        print(details(report))
    failing = [r for r in report.results if r.entry.framework in judging.JUDGED and r.outcome in ("missed", "false")]
    print(
        f"\nvLLM {report.release}: {len(report.entries)} files, {len(report.results)} mutants, {len(failing)} disagreements; "
        f"judge {report.judge_seconds:.0f} s, total {report.total_seconds:.0f} s"
    )
    forked = collections.Counter(r.outcome for r in report.results if "[fork: " in r.mutant.label)
    if forked:
        print("Source edits (a fork's own files, judged by the edited code): " + ", ".join(f"{n} {o}" for o, n in sorted(forked.items())))
    hydra = hydra_words.run(judging.FRAMEWORKS_PATH) if not options.only or options.only.startswith("verl") else hydra_words.HydraReport()
    print(f"Hydra's refusals of verl overrides: {hydra.compositions} compositions, {len(hydra.false)} false, {len(hydra.missed)} missed")
    for line in hydra.false + (hydra.missed if options.details else []):
        print(f"  {line[:600]}")
    return 1 if failing or hydra.false else 0


def rows(report: judging.Report) -> dict[str, collections.Counter]:
    counts = collections.defaultdict(collections.Counter)
    launches = collections.defaultdict(set)
    judged = collections.defaultdict(set)
    for entry in report.entries:
        counts[entry.framework]["files"] += 1
    for result in report.results:
        framework = result.entry.framework
        launches[framework].add(result.entry.path)
        counts[framework]["mutants"] += 1
        counts[framework][result.outcome.replace("not-judged", "not judged")] += 1
        if result.outcome != "not-judged":
            counts[framework]["judged"] += 1
            judged[framework].add(result.entry.path)
    for framework in counts:
        counts[framework]["launches"] = len(launches[framework])
        counts[framework]["launches judged"] = len(judged[framework])
    return counts


def table(report: judging.Report) -> str:
    counts = rows(report)
    lines = ["| framework | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    total = collections.Counter()
    for framework in sorted(counts):
        total.update(counts[framework])
        lines.append(f"| {framework} | " + " | ".join(str(counts[framework][c]) for c in COLUMNS) + " |")
    lines.append("| **total** | " + " | ".join(f"**{total[c]}**" for c in COLUMNS) + " |")
    lines.append("")
    lines.append(
        "files: launch files; launches: files with a framework launch; launches judged: those with a mutant that reached a "
        "verdict; mutants: a control without replay and the mutations of each launch, in their open-ended forms too; judged: "
        "mutants with a verdict (agree + missed + false + open-ended)."
    )
    lines.append("")
    lines.append(not_judged(report))
    return "\n".join(lines)


def not_judged(report: judging.Report) -> str:
    """Why mutants were not judged, per framework: the reasons with the numbers in them left out."""
    reasons = collections.defaultdict(collections.Counter)
    for result in report.results:
        if result.outcome == "not-judged":
            reason = re.sub(r"\s+", " ", result.detail.split("\n")[0])[:140]
            reasons[result.entry.framework][re.sub(r"\d+", "N", reason)] += 1
    lines = ["Not judged, by reason:"]
    for framework in sorted(reasons):
        for reason, count in reasons[framework].most_common():
            lines.append(f"- {framework}: {count} x {reason}")
    return "\n".join(lines)


def details(report: judging.Report) -> str:
    lines = []
    for result in report.results:
        if result.outcome == "agree":
            continue
        lines.append(f"{result.outcome:10} {result.id}: {result.mutant.what}\n           {result.detail[:600]}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
