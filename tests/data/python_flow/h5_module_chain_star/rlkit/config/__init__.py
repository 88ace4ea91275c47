# Imitates alibaba/ROLL/roll/configs/__init__.py (defaults re-exported with a star import)
from .defaults import *  # noqa: F403
