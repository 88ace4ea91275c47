# Imitates zou-group/textgrad textgrad/__init__.py (trimmed to the engine getter).
from .engine import get_engine
