# Imitates GAIR-NLP/ProX utils/data_utils.py (trimmed to the batching helper).
def split_into_batches(items, batch_size):
    if batch_size is None:
        return [items]
    return [items[i : i + batch_size] for i in range(0, len(items), batch_size)]
