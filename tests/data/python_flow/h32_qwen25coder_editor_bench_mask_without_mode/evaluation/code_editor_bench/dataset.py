# Imitates QwenLM/Qwen2.5-Coder evaluation/code_editor_bench/dataset.py, trimmed.
import json

from torch.utils.data import Dataset
from torch.utils.data.dataloader import default_collate


class JsonlDataset(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(line) for line in f]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, idx):
        return self.rows[idx]


def my_collate_fn(batch):
    return default_collate(batch)
