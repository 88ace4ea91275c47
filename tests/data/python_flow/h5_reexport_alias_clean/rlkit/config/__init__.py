# Imitates alibaba/ROLL/roll/configs/__init__.py (a default re-exported under another name)
from .defaults import REPLAY_LOGPROBS_MODE as LOGPROBS_MODE
from .defaults import MODEL

__all__ = ["LOGPROBS_MODE", "MODEL"]
