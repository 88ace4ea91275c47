# Imitates IINemo/lm-polygraph src/lm_polygraph/utils/dataset.py (trimmed)
import random

from datasets import load_dataset


class Dataset:
    def __init__(self, x, y, batch_size):
        self.x = x
        self.y = y
        self.batch_size = batch_size

    def __iter__(self):
        for i in range(0, len(self.x), self.batch_size):
            yield self.x[i : i + self.batch_size], self.y[i : i + self.batch_size]

    def subsample(self, size, seed):
        random.seed(seed)
        index = random.sample(range(len(self.x)), min(size, len(self.x)))
        self.x = [self.x[i] for i in index]
        self.y = [self.y[i] for i in index]

    @staticmethod
    def load(path, x_column, y_column, batch_size, split="test"):
        dataset = load_dataset(path, split=split)
        return Dataset(list(dataset[x_column]), list(dataset[y_column]), batch_size)
