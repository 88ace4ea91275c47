SYSTEM_PROMPT = "You are an expert researcher who designs ablation studies for machine learning papers."


def prepare_user_prompt(example):
    return (
        f"Research context:\n{example['research_context']}\n\n"
        f"Ablation module:\n{example['ablation_module']}\n\n"
        "Design an ablation study for the module above."
    )


def build_single_message(example):
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": prepare_user_prompt(example)},
    ]


def load_data(data):
    return [build_single_message(example) for example in data]
