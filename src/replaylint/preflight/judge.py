"""`preflight --judge`: the installed vLLM's own verdict beside replaylint's.

A child process (`ask_vllm`, run by path with `python -P`: nothing is imported from the
working folder) parses the launch with vLLM's own `vllm serve` parser and builds its engine config on a
stand-in model. Its verdict is compared with the findings that predict one (errors that quote
vLLM's words: `says "..."`; a warning describes a launch vLLM accepts); a finding vLLM cannot see
(a plugin it never checks) is no disagreement.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import replace
from typing import Sequence

from ..records import record

# Tokens before the arguments of `vllm serve`: the CLI, or the API server module.
_API_SERVER = ("-m", "vllm.entrypoints.openai.api_server")
_SAYS = re.compile(r'says "(?P<message>.*)"')
_ARGUMENT_PREFIX = re.compile(r"^argument [^:]+: ")
NO_DEVICE = "Failed to infer device type"
_REPLAY_WORDS = ("sampling distribution replay", "Model Runner V2", "VLLM_USE_V2_MODEL_RUNNER", "sampling-mask", "sampling_mask")


# Nothing is imported from the working folder or the program's folder; PYTHONPATH still counts,
# as it does for `vllm serve` (Python 3.10 has no -P: -I, which also drops PYTHONPATH).
_SAFE_PATH = ("-P",) if sys.version_info >= (3, 11) else ("-I",)


@record(unsafe_hash=True)
class Verdict:
    ok: bool
    message: str = ""
    phase: str = ""
    version: str = ""
    seconds: float = 0.0
    stand_in_gpu: bool = False  # vLLM found no device here: it was asked on one stand-in H100


def serve_arguments(words: Sequence[str]) -> list[str] | None:
    """The words after `vllm serve` (or the API server module), or None for another command."""
    if len(words) >= 2 and os.path.basename(words[0]) == "vllm" and words[1] == "serve":
        return list(words[2:])
    for start in range(len(words) - 1):
        if tuple(words[start : start + 2]) == _API_SERVER and re.match(r"python[\d.]*$", os.path.basename(words[0])):
            return list(words[start + 2 :])
    return None


def ask(arguments: list[str], timeout: float = 600) -> Verdict:
    """The installed vLLM's verdict (in a child process of this Python); where vLLM finds no
    device it can use, its verdict on one stand-in H100 (`stand_in_gpu`)."""
    started = time.perf_counter()
    verdict = _ask(arguments, timeout, stand_in_gpu=False)
    if not verdict.ok and verdict.message.startswith(NO_DEVICE):
        verdict = replace(_ask(arguments, timeout, stand_in_gpu=True), stand_in_gpu=True)
    return replace(verdict, seconds=time.perf_counter() - started)


def _ask(arguments: list[str], timeout: float, stand_in_gpu: bool) -> Verdict:
    program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ask_vllm.py")
    command = [sys.executable, *_SAFE_PATH, program, *(["--stand-in-gpu"] if stand_in_gpu else [])]
    try:
        done = subprocess.run(command, input=json.dumps({"argv": arguments}), capture_output=True, text=True, timeout=timeout)
        answer = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
        if not answer:
            answer = {
                "ok": False,
                "phase": "other",
                "message": f"vLLM gave no verdict (exit {done.returncode}): {done.stderr.strip()[-500:]}",
            }
    except (OSError, subprocess.TimeoutExpired, ValueError) as error:
        answer = {"ok": False, "phase": "other", "message": f"vLLM could not be asked: {error}"}
    return Verdict(bool(answer.get("ok")), str(answer.get("message", "")), str(answer.get("phase", "")), str(answer.get("version", "")))


def compare(verdict: Verdict, findings: Sequence[object]) -> tuple[bool, str]:
    """Whether replaylint and vLLM agree, and what is printed: vLLM's verdict in its own words,
    and a disagreement as one, with both verdicts."""
    # Warnings (RPL202, the RPL3xx family) describe launches vLLM accepts: only errors predict a refusal.
    predicted = [
        finding.message  # type: ignore[attr-defined]
        for finding in findings
        if getattr(finding, "severity", "error") == "error" and _SAYS.search(getattr(finding, "message", ""))
    ]
    who = f"vLLM {verdict.version}".strip() if verdict.version else "the installed vLLM"
    where = ", on a stand-in H100: vLLM finds no GPU here" if verdict.stand_in_gpu else ""
    cost = f" (asked in {verdict.seconds:.1f} s{where})"
    if verdict.ok:
        said = f"{who} accepts the launch{cost}"
        if predicted:
            return False, f"{said}\ndisagreement: replaylint predicts that vLLM refuses it:\n" + "\n".join(f"  {m}" for m in predicted)
        return True, said
    essential = _ARGUMENT_PREFIX.sub("", verdict.message) if verdict.phase == "argparse" else verdict.message
    said = f'{who} refuses the launch ({verdict.phase}): "{verdict.message}"{cost}'
    if any(essential and essential in message for message in predicted):
        return True, said + "\nreplaylint predicted it"
    if any(word in verdict.message for word in _REPLAY_WORDS):
        theirs = "\n".join(f"  {m}" for m in predicted) or "  nothing"
        return False, f"{said}\ndisagreement: replaylint predicted instead:\n{theirs}"
    return True, said + "\n(a reason replaylint does not check: vLLM stops at its first problem)"
