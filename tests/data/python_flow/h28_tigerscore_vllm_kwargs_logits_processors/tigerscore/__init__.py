# Imitates TIGER-AI-Lab/TIGERScore tigerscore/__init__.py
from .scorer.tigerscore import TIGERScorer
