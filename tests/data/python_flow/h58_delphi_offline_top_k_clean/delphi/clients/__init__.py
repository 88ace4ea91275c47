from .offline import Offline

__all__ = ["Offline"]
