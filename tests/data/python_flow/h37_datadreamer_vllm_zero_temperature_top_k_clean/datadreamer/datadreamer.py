# Imitates datadreamer-dev/DataDreamer src/datadreamer.py (trimmed: the output folder and the session flag).
import os


class DataDreamer:
    ctx = None

    def __init__(self, output_folder_path: str):
        self.output_folder_path = output_folder_path

    @staticmethod
    def initialized() -> bool:
        return DataDreamer.ctx is not None

    def __enter__(self):
        os.makedirs(self.output_folder_path, exist_ok=True)
        DataDreamer.ctx = self
        return self

    def __exit__(self, *exc):
        DataDreamer.ctx = None
        return False
