"""The framework judge's own parts that need no judge: the corpus manifest, the mutations users
make, and the comparison of the truth with replaylint's findings (tests/frameworks_judge/)."""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess

import yaml

from tests.frameworks_judge import judging, mutants
from tests.frameworks_judge.judging import Entry, Result

MASK_MESSAGE = "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs are normalized over the same nucleus as the sampling mask"
TOP_K_MESSAGE = (
    "sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer overhead, and avoid potential OOMs"
)
SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
python -m verl.trainer.main_ppo \\
  algorithm.adv_estimator=grpo \\
  actor_rollout_ref.rollout.name=vllm \\
  "$@"
echo done
"""


def test_manifest_files_are_the_archives_files():
    data = json.loads(judging.MANIFEST.read_text())
    for item in [*data["files"], *data["support_files"]]:
        path = judging.CORPUS / item["path"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == item["sha256"], item["path"]
        assert item["licence"] in data["allowed_licences"]
        assert item["archive"] and len(item["archive_sha256"]) == 64 and item["original_path"]
    assert {item["framework"] for item in data["files"]} >= {"verl"}


def test_yaml_mutant_sets_the_pass_through_key_and_keeps_the_rest():
    text = "# a copy of ppo_trainer\nactor_rollout_ref:\n  rollout:\n    name: ???\n    top_k: -1\n    engine_kwargs:\n      vllm: {}\ntrainer:\n  nnodes: 1\n"
    mutant = mutants.yaml_mutant(text, mutants.VERL[0], mutants.VERL_BASE)
    document = yaml.safe_load(mutant.text)
    rollout = document["actor_rollout_ref"]["rollout"]
    assert rollout["engine_kwargs"]["vllm"] == {"return_sampling_mask": True}
    assert rollout["name"] == "vllm" and rollout["top_k"] == -1
    assert document["trainer"] == {"nnodes": 1}
    assert mutant.text.startswith("# a copy of ppo_trainer\n")


def test_shell_mutant_puts_overrides_before_the_trailing_arguments():
    mutation = next(m for m in mutants.VERL if m.label == "mask+ngram")
    mutant = mutants.shell_mutant(SCRIPT, "verl.trainer.main_ppo", mutation)
    words = _main_ppo_words(mutant.text)
    assert words[-1] == "ARG" and words[:2] == ["algorithm.adv_estimator=grpo", "actor_rollout_ref.rollout.name=vllm"]
    assert "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true" in words
    assert (
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.speculative_config={method:ngram,num_speculative_tokens:3,prompt_lookup_max:3}"
        in words
    )
    assert "actor_rollout_ref.rollout.top_k=50" in words


def test_shell_mutant_appends_to_a_command_without_trailing_arguments():
    script = "python3 -m verl.trainer.main_ppo \\\n  trainer.nnodes=1\n"
    mutant = mutants.shell_mutant(script, "verl.trainer.main_ppo", mutants.VERL[-1])
    assert _main_ppo_words(mutant.text) == ["trainer.nnodes=1", "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask='True'"]


def _main_ppo_words(script: str) -> list[str]:
    """What bash passes to the module (the script's own words, then one argument)."""
    shim = 'python() { shift 2; printf \'%s\\n\' "$@"; exit 0; }; python3() { python "$@"; }\n'
    done = subprocess.run(["bash", "-c", shim + script, "script", "ARG"], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def _result(truth: dict, findings: list[dict]) -> Result:
    result = Result(Entry("verl/x.yaml", "verl", "verl", "config"), mutants.Mutant("mask", "the mask", ""))
    result.case, result.truth, result.findings = {"id": "x"}, truth, findings
    judging.classify(result)
    return result


def _finding(code: str, message: str, severity: str = "error") -> dict:
    return {"code": code, "message": message, "severity": severity}


def test_a_replay_refusal_needs_a_finding_with_vllms_words():
    truth = {"framework_error": None, "verdict": {"ok": False, "phase": "config", "message": MASK_MESSAGE}}
    assert _result(truth, []).outcome == "missed"
    quoted = _finding("RPL003", f'`logprobs_mode: raw_logprobs`: vLLM 0.34.0 says "{MASK_MESSAGE}"')
    assert _result(truth, [quoted]).outcome == "agree"


def test_a_refused_request_needs_the_request_rule():
    request = {"name": "rollout", "params": {"top_k": -1}, "verdict": {"ok": False, "message": TOP_K_MESSAGE}}
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [request]}
    assert _result(truth, []).outcome == "missed"
    assert _result(truth, [_finding("RPL102", f'top_k=-1 (verl default): vLLM 0.34.0 says "{TOP_K_MESSAGE}"')]).outcome == "agree"


def test_an_error_on_a_launch_that_starts_is_a_false_finding_but_a_warning_is_not():
    truth = {"framework_error": None, "verdict": {"ok": True}, "requests": [{"name": "rollout", "params": {}, "verdict": {"ok": True}}]}
    assert _result(truth, [_finding("RPL003", MASK_MESSAGE)]).outcome == "false"
    assert _result(truth, [_finding("RPL205", "dotted keys", severity="warning")]).outcome == "agree"


def test_other_refusals_and_judge_failures_are_not_judged():
    other = {"framework_error": {"exception": "AssertionError", "message": "n_gpus must be divisible", "where": "verl/utils/config.py:1"}}
    assert _result(other, []).outcome == "not-judged"
    replay = {"framework_error": {"exception": "SystemExit", "message": "unrecognized arguments: --vllm.return_sampling_mask"}}
    assert _result(replay, []).outcome == "missed"
    assert _result({"judge_error": "verl could not be imported"}, []).outcome == "not-judged"
    unknown = {"verdict": {"ok": True}, "requests": [{"name": "rollout", "params": {}, "verdict": {"ok": None, "message": "x"}}]}
    assert _result(unknown, []).outcome == "not-judged"


def test_every_verl_mutation_is_a_valid_hydra_override_line():
    for mutation in mutants.VERL:
        assert shlex.split(" ".join(mutants._quote(word) for word in mutation.words)) == list(mutation.words)
