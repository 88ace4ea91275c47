BASE = dict(temperature=1.0, max_tokens=4096, seed=0)
