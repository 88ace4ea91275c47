# Imitates huggingface/open-r1 scripts/pass_rate_filtering/compute_pass_rate.py (a SamplingParams
# built from a config's sampling fields), the fields kept in a typing.NamedTuple with defaults
# and spread with `._asdict()`.
from typing import NamedTuple


class SamplingSpec(NamedTuple):
    temperature: float = 1.0
    top_p: float = 0.95
    top_k: int = -1  # expect: RPL102
    max_tokens: int = 2048
    n: int = 4


TRAIN_SPEC = SamplingSpec()
