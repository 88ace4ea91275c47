# Imitates kiwi0401/PoIW vllm/main.py's helper module (utils.to_json), written from its use.
import json


def to_json(outputs):
    return json.dumps(
        [
            {"prompt": o.prompt, "text": o.outputs[0].text, "token_ids": list(o.outputs[0].token_ids)}
            for o in outputs
        ],
        indent=2,
    )
