# MEGA-Bench's megabench/utils.py helpers used here (trimmed).
import importlib

from datasets import load_dataset


def lazy_import(module_name, class_name):
    def importer():
        module = importlib.import_module(module_name)
        return getattr(module, class_name)

    return importer


def prepare_megabench_data(dataset_name, dataset_subset_name):
    subset_dataset = load_dataset(dataset_name, dataset_subset_name, split="test")
    all_dataset = load_dataset(dataset_name, "core", split="test")
    return subset_dataset, all_dataset
