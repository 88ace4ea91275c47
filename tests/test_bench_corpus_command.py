"""bench/corpus.py's replaylint command runs in each scanned tree (its working folder): a package
named `replaylint` in that tree must not be what runs (as `python -m replaylint` would import it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import replaylint

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import corpus  # noqa: E402


def test_the_command_run_inside_a_tree_ignores_a_replaylint_package_there(tmp_path: Path, monkeypatch) -> None:
    planted = tmp_path / "replaylint"
    planted.mkdir()
    (planted / "__init__.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    (planted / "__main__.py").write_text("")
    monkeypatch.delenv("REPLAYLINT", raising=False)
    monkeypatch.chdir(tmp_path)
    found, why = corpus.find_replaylint()
    assert found is not None, why
    done = subprocess.run([*found.cmd, "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == f"replaylint {replaylint.__version__}"
    assert not (tmp_path / "ran").exists()
