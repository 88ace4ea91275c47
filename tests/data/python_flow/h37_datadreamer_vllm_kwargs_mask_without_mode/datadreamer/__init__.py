# Imitates datadreamer-dev/DataDreamer src/__init__.py (trimmed: the session context only).
from .datadreamer import DataDreamer

__all__ = ["DataDreamer"]
