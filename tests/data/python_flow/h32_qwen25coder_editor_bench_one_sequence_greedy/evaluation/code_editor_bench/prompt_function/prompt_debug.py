def generate_prompt_group1(batch, model_choice, prompt_type):
    return [f"Fix the bug in the following code:\n{code}\n" for code in batch["incorrect_solutions"]]
