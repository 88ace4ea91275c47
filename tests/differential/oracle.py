"""What replaylint must say, given the real vLLM's verdict on a launch.

* vLLM accepts -> replaylint reports no error-severity finding (warnings are allowed).
* vLLM rejects for a replay reason -> one of replaylint's error findings contains the
  *essential text* of vLLM's message (below).
* vLLM rejects for another reason -> nothing is required ("other"); vLLM stops at its first
  problem, so whatever replaylint says about the rest cannot be checked against it.

Replay reasons and their essential text:

| vLLM's message | replay-related when | essential text |
|---|---|---|
| R1-R5 (`sampling distribution replay ...`) | always | the whole message |
| `Batch-sharded sampling was explicitly enabled ...` | it lists the return_sampling_mask reason | the whole message |
| `Model Runner V2 does not yet support: ...` | the launch asks for replay | the whole message |
| `invalid literal for int() with base 10: ...` | always (only the runner variable is an int read from text) | the whole message |
| `VLLM_USE_V2_MODEL_RUNNER=X is no longer supported: ...` (0.34.0+) | always (vLLM checks the variable before any config) | the whole message |
| argparse `argument --return-sampling-mask/...: ignored explicit argument 'X'` | always | from `ignored explicit argument` on |
| argparse `argument --logprobs-mode: invalid choice: ...` | the launch asks for replay | from `invalid choice:` on |
| argparse `unrecognized arguments: W1 W2 ...` | for each W that is a boolean word (after the mask switch) or names the mask | `unrecognized arguments: W`, per such W |
| argparse `ambiguous option: --X could match A, B` | a candidate is `--return-sampling-mask` (or `--logprobs-mode` when asking for replay) | `ambiguous option: --X could match ` and every candidate, in any order (replaylint's option tables are sorted, argparse lists candidates in registration order) |
| pydantic `N validation error(s) for ModelConfig` | per error on `return_sampling_mask`, or on `logprobs_mode` when asking for replay | that error's `Input should be ...` sentence, without ` [type=...]` |

argparse prefixes its messages with `argument <all spellings of the option>:`; replaylint
quotes the spelling the user wrote instead, so the prefix is not part of the essential text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from replaylint.vllm import messages

from .generator import MODEL

REPLAY_MESSAGES = frozenset(
    (
        messages.REQUIRES_V2,
        messages.NO_SPEC_DECODE,
        messages.NO_ADAPTIVE_VERIFICATION,
        messages.NO_DIFFUSION,
        messages.NO_CUSTOM_LOGITS_PROCESSORS,
        messages.REQUIRES_PROCESSED_LOGPROBS,
    )
)
_RULE_IDS = {
    messages.REQUIRES_V2: "R1",
    messages.NO_SPEC_DECODE: "R2a",
    messages.NO_ADAPTIVE_VERIFICATION: "R2b",
    messages.NO_DIFFUSION: "R3",
    messages.NO_CUSTOM_LOGITS_PROCESSORS: "R4",
    messages.REQUIRES_PROCESSED_LOGPROBS: "R5",
}
V2_UNSUPPORTED_PREFIX = messages.V2_UNSUPPORTED.split("{")[0]
INVALID_INT_PREFIX = messages.INVALID_INT.split("{")[0]
RUNNER_ENV_REMOVED_TAIL = messages.RUNNER_ENV_REMOVED.split("}")[1]
BOOL_WORDS = frozenset(("true", "false", "yes", "no", "1", "0", "on", "off", "True", "False"))
_ARGUMENT_PREFIX = re.compile(r"^argument [^:]+: ")
_PYDANTIC_HEAD = re.compile(r"^\d+ validation errors? for ModelConfig\n")
_PYDANTIC_ERROR = re.compile(r"^(?P<field>\S+)\n  (?P<text>[^\n]*?)(?: \[type=[^\n]*)?$", re.M)


@dataclass(frozen=True)
class Expectation:
    """`fragments`: each entry must be found in one error finding; a tuple entry means all of
    its parts in the same finding."""

    outcome: str  # "accept", "replay" or "other"
    label: str  # a short name of vLLM's reason, for the statistics
    fragments: tuple[str | tuple[str, ...], ...] = ()


def expect(verdict: dict, asks_for_replay: bool) -> Expectation:
    """What replaylint must report for a launch vLLM judged as `verdict`."""
    if verdict.get("ok"):
        return Expectation("accept", "ok")
    message = verdict.get("message") or ""
    if verdict.get("phase") == "argparse":
        return _argparse(message, asks_for_replay)
    if message in REPLAY_MESSAGES:
        return Expectation("replay", _RULE_IDS[message], (message,))
    if message.startswith(messages.BATCH_SHARDED_PREFIX):
        if messages.BATCH_SHARDED_MASK_REASON in message:
            return Expectation("replay", "R6", (message,))
        return Expectation("other", "batch-sharded (no replay reason)")
    if message.startswith(V2_UNSUPPORTED_PREFIX):
        return Expectation("replay", "Rv", (message,)) if asks_for_replay else Expectation("other", "Rv (no replay)")
    if message.startswith(INVALID_INT_PREFIX):
        return Expectation("replay", "runner variable", (message,))
    if message.startswith("VLLM_USE_V2_MODEL_RUNNER=") and message.endswith(RUNNER_ENV_REMOVED_TAIL):
        return Expectation("replay", "runner variable removed", (message,))
    if _PYDANTIC_HEAD.match(message):
        fragments = tuple(
            error.group("text").strip()
            for error in _PYDANTIC_ERROR.finditer(message)
            if error.group("field") == "return_sampling_mask" or (error.group("field") == "logprobs_mode" and asks_for_replay)
        )
        if fragments:
            return Expectation("replay", "pydantic ModelConfig", fragments)
    return Expectation("other", _other_label(message))


def _argparse(message: str, asks_for_replay: bool) -> Expectation:
    essential = _ARGUMENT_PREFIX.sub("", message)
    if "ignored explicit argument" in message and "--return-sampling-mask" in message:
        return Expectation("replay", "argparse mask value", (essential,))
    if message.startswith("argument --logprobs-mode: invalid choice") and asks_for_replay:
        return Expectation("replay", "argparse logprobs choice", (essential,))
    if message.startswith("unrecognized arguments: "):
        words = message[len("unrecognized arguments: ") :].split()
        replay_words = [w for w in words if w in BOOL_WORDS or "sampling-mask" in w or "sampling_mask" in w]
        if replay_words:
            return Expectation("replay", "argparse unrecognized", tuple(f"unrecognized arguments: {w}" for w in replay_words))
    if message.startswith("ambiguous option: "):
        candidates = message.split(" could match ", 1)[-1].split(", ")
        if "--return-sampling-mask" in candidates or ("--logprobs-mode" in candidates and asks_for_replay):
            head = message.split(" could match ", 1)[0] + " could match "
            return Expectation("replay", "argparse ambiguous", ((head, *candidates),))
    return Expectation("other", "argparse: " + _other_label(essential))


def _other_label(message: str) -> str:
    first = message.split("\n")[0]
    first = re.sub(r"'[^']*'", "'…'", first)
    return first[:70]


@dataclass(frozen=True)
class Disagreement:
    problem: str  # "error on an accepted launch", "missing vLLM's message", "internal error"
    detail: str


def compare(expectation: Expectation, errors: list[str], internal_error: str | None) -> Disagreement | None:
    """replaylint's error messages against the expectation; None when they agree."""
    if internal_error:
        return Disagreement("internal error", internal_error)
    if expectation.outcome == "accept" and errors:
        return Disagreement("error on a launch vLLM accepts", "\n".join(errors))
    if expectation.outcome == "replay":
        missing = [fragment for fragment in expectation.fragments if not any(_holds(fragment, error) for error in errors)]
        if missing:
            return Disagreement("vLLM's replay message is missing", "missing: " + " | ".join(map(str, missing)))
    return None


# Disagreements whose fix belongs to code outside this test's reach, each with the reason. A
# known gap is counted and printed, not failed; delete the entry once the fix has landed.


def known_gap(expectation: Expectation, text: str, model: str) -> str | None:
    if expectation.label == "Rv" and "prefill context parallelism" in str(expectation.fragments) and model == MODEL:
        return "model-dependent: 0.28 refuses PCP on V2 unless the model uses MLA, which its name does not tell"
    return None


def _holds(fragment: str | tuple[str, ...], error: str) -> bool:
    parts = (fragment,) if isinstance(fragment, str) else fragment
    return all(part in error for part in parts)
