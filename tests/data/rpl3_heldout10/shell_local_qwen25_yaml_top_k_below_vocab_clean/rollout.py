import requests
import yaml

with open("configs/sampling.yaml") as fh:
    CFG = yaml.safe_load(fh)


def generate(token_ids):
    body = {"model": "policy", "token_ids": token_ids, "sampling_params": CFG["sampling"]}
    out = requests.post(CFG["server"] + "/inference/v1/generate", json=body, timeout=600)
    out.raise_for_status()
    return out.json()["choices"][0]


if __name__ == "__main__":
    print(generate([151644, 872, 198]))
