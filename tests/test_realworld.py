"""The real-world corpus (fixtures/realworld/), without the vLLM judge: the manifest matches the
files, and replaylint scans every file as it is with no crash and exactly the manifest's
expected findings. `python scripts/realworld.py` adds the mutants and the judges."""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.realworld import harness, mutate
from tests.realworld.sandbox import new_sandbox

ENTRIES = harness.load_manifest()
SUPPORT = harness.load_support()


def test_manifest_lists_every_file_once():
    on_disk = {str(p.relative_to(harness.CORPUS)) for p in harness.CORPUS.rglob("*") if p.is_file()} - {"manifest.json"}
    listed = [entry.path for entry in ENTRIES + SUPPORT]
    assert len(listed) == len(set(listed))
    assert on_disk == set(listed)


def test_corpus_is_large_and_varied_enough():
    assert len(ENTRIES) >= 300
    assert len({entry.project for entry in ENTRIES}) >= 12


@pytest.mark.parametrize("entry", ENTRIES + SUPPORT, ids=lambda e: e.path)
def test_file_is_unchanged_and_its_licence_allowed(entry):
    assert hashlib.sha256(entry.file.read_bytes()).hexdigest() == entry.sha256
    assert entry.licence in harness.ALLOWED_LICENCES
    assert entry.raw["archive_sha256"] and entry.raw["original_path"].endswith(entry.path.split("/", 1)[1])


def test_unmutated_corpus_scans_as_the_manifest_says():
    problems = []
    for entry in ENTRIES:
        scan = harness.scan_as_is(entry)
        if scan.internal_error:
            problems.append(f"{entry.path}: crash: {scan.internal_error}")
        got = sorted((f["code"], f["line"]) for f in scan.findings)
        want = sorted((f["code"], f["line"]) for f in entry.expected_findings)
        if got != want:
            problems.append(f"{entry.path}: {got} != expected {want}")
        if any(f["code"] == "RPL900" for f in scan.findings) and harness.valid_in_own_language(entry) is not False:
            problems.append(f"{entry.path}: RPL900 on a file its own tool accepts")
    assert problems == []


def test_known_bugs_are_documented():
    bugs = json.loads(harness.KNOWN_BUGS.read_text())["bugs"]
    text = (harness.REPO / "tests" / "realworld_bugs.md").read_text()
    for bug in bugs:
        assert f"## {bug['id']}" in text


# -- the sandbox's inputs (tests/realworld/inputs.py): real bash, no judge --------------------


@pytest.fixture(scope="module")
def sandbox():
    box, holder = new_sandbox()
    yield box
    holder.cleanup()


def reach(box, script: str, files: dict[str, bytes] | None = None):
    """The launches with the mask that bash records for `script` (run as the project's
    `run.sh`), with the inputs the retries found."""
    tree = {"run.sh": script.encode(), **(files or {})}
    lines = script.splitlines()
    site = next(number for number, line in enumerate(lines, start=1) if "vllm serve" in line)
    return harness.run_with_inputs(lambda given: box.run(tree, "run.sh", inputs=given), "run.sh", script, site, lambda: [script])


def test_a_script_gets_each_word_its_usage_line_lists(sandbox):
    script = 'case "$1" in\n  a) vllm serve org/a ;;\n  b) vllm serve org/b --return-sampling-mask ;;\n  *) echo "Usage: $0 a|b" >&2; exit 2 ;;\nesac\n'
    found, why = reach(sandbox, script)
    assert why == ""
    assert [launch.argv for launch in found] == [["org/b", "--return-sampling-mask"]]
    assert found[0].inputs == "arguments b" and not found[0].depends_on_inputs


def test_a_variable_set_u_wants_gets_a_placeholder_and_a_missing_folder_is_made(sandbox):
    if not sandbox.private_root:
        pytest.skip("a folder outside the sandbox needs the private root (root and unshare)")
    script = (
        'set -euo pipefail\ncd /workspace/project\nmkdir -p logs\nvllm serve org/m --return-sampling-mask --port "$PORT" > logs/vllm.log\n'
    )
    found, _ = reach(sandbox, script)
    assert [launch.argv for launch in found] == [["org/m", "--return-sampling-mask", "--port", "1"]]
    assert found[0].inputs == "PORT=1; folder /workspace/project"
    assert found[0].depends_on_inputs  # the port changes with the placeholder


def test_a_launch_that_does_not_change_with_the_placeholders_is_not_input_dependent(sandbox):
    script = ': "${BUILD_ID:?BUILD_ID must be set}"\nvllm serve org/m --return-sampling-mask\n'
    found, _ = reach(sandbox, script)
    assert [launch.argv for launch in found] == [["org/m", "--return-sampling-mask"]]
    assert found[0].inputs == "BUILD_ID=1" and not found[0].depends_on_inputs


def test_a_launch_in_a_branch_no_input_takes_is_not_reached(sandbox):
    script = 'if [[ "$ENGINE" == vllm ]]; then\n  vllm serve org/m --return-sampling-mask\nfi\n'
    found, why = reach(sandbox, script)
    assert found == [] and why.startswith("bash recorded no vLLM start with the mask (script exit 0)")


def test_a_missing_sourced_file_gets_an_empty_stand_in(sandbox):
    script = 'set -e\nsource "$(dirname "$0")/lib/helpers.sh"\nsetup_cluster\nvllm serve org/m --return-sampling-mask\n'
    found, _ = reach(sandbox, script)
    assert [launch.argv for launch in found] == [["org/m", "--return-sampling-mask"]]
    assert found[0].inputs == "empty file lib/helpers.sh"


def test_words_that_name_a_launch_are_not_launch_sites():
    text = 'pkill -f "vllm serve" || true\necho "Command: vllm serve $ARGS"\nwait_ready "vllm serve" url\nvllm serve org/m\n'
    assert [mutant.line for mutant in mutate.mutants(text, "shell") if mutant.variant == "mask"] == [4]


def test_the_mask_goes_after_the_model_that_serve_takes_first():
    # vLLM refuses `vllm serve --flag MODEL --served-model-name NAME`: the model must come first.
    shell = mutate.mutants('vllm serve "$MODEL" \\\n  --served-model-name x\n', "shell")[0].text
    exec_form = mutate.mutants('command: ["vllm", "serve", "/data/", "--port", "8000"]\n', "kubernetes")[0].text
    options_first = mutate.mutants("vllm serve --port 8000\n", "shell")[0].text
    assert shell == 'vllm serve "$MODEL" --return-sampling-mask \\\n  --served-model-name x\n'
    assert exec_form == 'command: ["vllm", "serve", "/data/", "--return-sampling-mask", "--port", "8000"]\n'
    assert options_first == "vllm serve --return-sampling-mask --port 8000\n"
