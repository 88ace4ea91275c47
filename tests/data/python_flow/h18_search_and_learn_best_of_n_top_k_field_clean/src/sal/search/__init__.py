from .best_of_n import best_of_n

__all__ = ["best_of_n"]
