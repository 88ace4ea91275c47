# Imitates hiyouga/EasyR1 verl/__init__.py style re-exports: the package re-exports its engine defaults
from .defaults import ENGINE_KWARGS

__all__ = ["ENGINE_KWARGS"]
