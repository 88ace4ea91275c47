"""replaylint against the real vLLM: generated launches, five renderings, one judge run per release.

Opt-in (`pytest -m differential`); see README.md in this folder. Knobs (environment):
REPLAYLINT_DIFFERENTIAL_CASES (default 1000, for vLLM 0.33.0 and 0.34.0), REPLAYLINT_DIFFERENTIAL_SEED,
REPLAYLINT_DIFFERENTIAL_OTHER_CASES (default 200, for 0.28.0 and 0.31.0), and
REPLAYLINT_VLLM_RELEASES, a folder holding `vllm-X.Y.Z/` installs of the releases other than the
judge venv's 0.33.0 (`pip install --no-deps --target`); without it only 0.33.0 runs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .harness import Batch, describe, other_share, run_batch, summary

pytestmark = pytest.mark.differential

CASES = int(os.environ.get("REPLAYLINT_DIFFERENTIAL_CASES", "1000"))
OTHER_CASES = int(os.environ.get("REPLAYLINT_DIFFERENTIAL_OTHER_CASES", "200"))
SEED = int(os.environ.get("REPLAYLINT_DIFFERENTIAL_SEED", "20251202"))
FULL_RELEASES = ("0.34.0", "0.33.0")  # the newest releases: CASES each
OLDER_RELEASES = ("0.28.0", "0.31.0")  # OTHER_CASES each
KINDS = ("shell", "dockerfile", "kubernetes", "python", "python-argv")
MAX_SHOWN = 15

_batches: dict[str, Batch] = {}


def _vllm_path(release: str) -> str | None:
    if release == "0.33.0":
        return None
    folder = Path(os.environ.get("REPLAYLINT_VLLM_RELEASES", "")) / f"vllm-{release}"
    if not os.environ.get("REPLAYLINT_VLLM_RELEASES") or not (folder / "vllm").is_dir():
        pytest.skip(f"vLLM {release} is not installed (REPLAYLINT_VLLM_RELEASES/vllm-{release}; .ci/differential fetches it)")
    return str(folder)


def batch_for(release: str) -> Batch:
    if release not in _batches:
        vllm_path = _vllm_path(release)
        count = CASES if release in FULL_RELEASES else OTHER_CASES
        _batches[release] = run_batch(count, SEED, release, vllm_path)
        print("\n" + summary(_batches[release]))
    return _batches[release]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("release", (*FULL_RELEASES, *OLDER_RELEASES))
def test_replaylint_agrees_with_vllm(release: str, kind: str) -> None:
    batch = batch_for(release)
    disagreements = [outcome for outcome in batch.disagreements if outcome.scan.rendering.kind == kind]
    shown = "\n\n".join(describe(outcome) for outcome in disagreements[:MAX_SHOWN])
    assert not disagreements, f"{len(disagreements)} {kind} disagreements with vLLM {release}:\n\n{shown}\n\n{summary(batch)}"


@pytest.mark.parametrize("release", FULL_RELEASES)
def test_scale_and_mix(release: str) -> None:
    """Enough cases, every rendering scanned, and mostly launches a replay rule decides."""
    batch = batch_for(release)
    kinds = {outcome.scan.rendering.kind for outcome in batch.outcomes}
    assert kinds == set(KINDS)
    if CASES >= 1000:
        assert len(batch.outcomes) >= 4000, summary(batch)
    assert other_share(batch) < 0.2, summary(batch)
    replay = sum(outcome.expectation.outcome == "replay" for outcome in batch.outcomes)
    accept = sum(outcome.expectation.outcome == "accept" for outcome in batch.outcomes)
    assert replay > len(batch.outcomes) / 3 and accept > len(batch.outcomes) / 10, summary(batch)
