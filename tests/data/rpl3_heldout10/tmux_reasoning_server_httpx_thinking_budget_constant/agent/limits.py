"""Per-episode limits of the collector."""

MAX_NEW_TOKENS = 8192
REASONING_BUDGET = 4096
