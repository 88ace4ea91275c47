"""A launch the RL framework refuses before vLLM starts, as RPL204 reports it: in the framework's
own words, when what it refuses names a replay setting (the sampling mask, the logprobs mode, a
request's `top_k` or `temperature`). Other refusals are the framework's business, not replay's:
the adapters leave them unreported. The framework judge draws the same line
(tests/frameworks_judge/judging.py `REPLAY_WORDS`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..model import ArgIssue, Launch, Span

_REPLAY = re.compile(r"sampling[-_]mask|logprobs[-_]mode|top[-_]k|temperature")


def names_replay(text: str) -> bool:
    """Whether a refused word or a refusal's message names a replay setting."""
    return _REPLAY.search(text) is not None


def refusal(span: Span, spelling: str, name: str, message: str) -> ArgIssue:
    """The framework's refusal at the user's words (`spelling` at `span`), quoting `message`."""
    return ArgIssue("framework-rejected", span, spelling, name, message)


def refused(launch: Launch, issue: ArgIssue) -> Launch:
    """The launch as the framework leaves it when it refuses it: the refusal alone. vLLM never
    starts, so no vLLM rule has a setting or a request to judge (what the user fixes first is the
    framework's complaint)."""
    return replace(launch, settings={}, env={}, requests=(), issues=(issue,))
