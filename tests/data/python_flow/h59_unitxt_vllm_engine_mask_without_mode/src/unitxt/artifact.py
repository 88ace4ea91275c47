# Imitates IBM/unitxt src/unitxt/artifact.py (trimmed: prepare() runs when an artifact is built)
from .dataclass import Dataclass


class Artifact(Dataclass):
    def __post_init__(self):
        super().__post_init__()
        self.prepare()

    def prepare(self):
        pass
