# Imitates SalesforceAIResearch/ReGenesis src/reasoning/reasoning_paths_gen.py (self-discover stages over vLLM), trimmed.
"""
Modify codes from https://github.com/catid/self-discover.git
"""

import json

from fastchat.conversation import get_conv_template
from src.reasoning.read_datasets import load_gsm8k
from tqdm import tqdm
from vllm import LLM, SamplingParams


def template_construct(template, prompt):
    conv = get_conv_template(template)
    conv.set_system_message("You are a helpful, respectful and honest assistant.")
    conv.append_message(conv.roles[0], prompt)
    conv.append_message(conv.roles[1], None)
    return conv.get_prompt()


def generate_response_vllm(llm, sampling_params, prompts):
    outputs = llm.generate(prompts, sampling_params)
    return [output.outputs[0].text for output in outputs]


# STAGE 1


def select_reasoning_modules(task_descriptions, reasoning_modules, llm, sampling_params, template_usage="mistral"):
    """
    Step 1: SELECT relevant reasoning modules for the task.
    """
    reasoning_modules = [str(i) + ". " + reasoning_modules[i] for i in range(len(reasoning_modules))]
    prompts = []
    for task_description in task_descriptions:
        prompt = (
            f"Given the task: {task_description}, which of the following reasoning modules are relevant?\n\n"
            + "\n".join(reasoning_modules)
            + "\n\n Requirements: Do not elaborate on why. Only choose 2-3 reasoning modules. Do not solve this task."
        )
        prompts.append(template_construct(template_usage, prompt))
    return generate_response_vllm(llm, sampling_params, prompts)


def adapt_reasoning_modules(selected_modules_lst, task_example, llm, sampling_params, template_usage="mistral"):
    """
    Step 2: ADAPT the selected reasoning modules to be more specific to the task.
    """
    prompts = []
    for selected_modules in selected_modules_lst:
        prompt = f"Without working out the full solution, adapt the following general modules to be specific and concise to our task:\n{selected_modules}\n\nOur task:\n{task_example}."
        prompts.append(template_construct(template_usage, prompt))
    return generate_response_vllm(llm, sampling_params, prompts)


# STAGE 2
def execute_reasoning_structure(reasoning_structure_lst, task_instance, llm, sampling_params, template_usage="mistral"):
    """
    Execute the reasoning structure to solve a specific task instance.
    """
    prompts = []
    for reasoning_structure in reasoning_structure_lst:
        prompt = f"Using the following reasoning structure: {reasoning_structure}\n\nSolve this task step by step based on the given reasoning structure, and present your final answer as <---box--->.: {task_instance}"
        prompts.append(template_construct(template_usage, prompt).replace("<---box--->", "\\boxed{Your Answer}"))
    return generate_response_vllm(llm, sampling_params, prompts)


def check_results(solutions, truth, llm, sampling_params, question=None, template_usage="mistral"):
    prompts = []
    for solution in solutions:
        if not question:
            prompt = f"The solution given by the language model is: {solution}\n\nThe truth is: {truth}.\n\nIs the solution correct? Yes or No."
        else:
            prompt = f"Given the question: {question}, the solution given by the language model is: {solution}\n\nThe correct answer is: {truth}.\n\nDo you think the solution is correct (same with the correct answer)? Yes or No."
        prompts.append(template_construct(template_usage, prompt))
    correctness = generate_response_vllm(llm, sampling_params, prompts)
    return [True if "yes" in c[:20].lower() else False for c in correctness]


# Example usage
if __name__ == "__main__":
    reasoning_modules = [
        "How could I devise an experiment to help solve that problem?",
        "How can I simplify the problem so that it is easier to solve?",
        "How can I break down this problem into smaller, more manageable parts?",
        "What is the core issue or problem that needs to be addressed?",
        "Let's think step by step.",
        "Let's make a step by step plan and implement it with good notation and explanation.",
    ]

    dataset = load_gsm8k()
    sampling_params = SamplingParams(
        temperature=1.2, top_p=0.9, top_k=50, max_tokens=2048, stop=["</s>", "[/INST]"]
    )
    # change to your model
    llm = LLM(
        model="meta-llama/Meta-Llama-3-8B-Instruct",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )  # , tensor_parallel_size=2)  # tensor_parallel_size=4
    template_usage = "llama-3"
    r = [0, 3000]  # choose the subset you want to run, if all you can set [0, 100000]

    outfile_all = open("/export/atlas-eval/auto_gen/reasoning/gsm8k_llama_" + str(r[0]) + "_" + str(r[1]) + ".jsonl", "w")

    for j in tqdm(range(r[0], min(r[1], len(dataset["instruction"])))):
        task_example = dataset["instruction"][j]
        truth = dataset["answer"][j]

        selected_modules = select_reasoning_modules(
            [task_example] * 20, reasoning_modules, llm, sampling_params, template_usage
        ) + reasoning_modules

        adapted_modules = adapt_reasoning_modules(selected_modules, task_example, llm, sampling_params, template_usage)

        results_lst = execute_reasoning_structure(adapted_modules, task_example, llm, sampling_params, template_usage)

        correctness = check_results(
            results_lst,
            truth,
            llm,
            sampling_params,
            question=task_example,
            template_usage=template_usage,
        )

        for i in range(len(results_lst)):
            entry = dict()
            entry["instruction"] = dataset["instruction"][j]
            entry["answer"] = dataset["answer"][j]
            entry["module"] = selected_modules[i]
            entry["reasoning"] = results_lst[i]
            entry["correctness"] = correctness[i]
            json.dump(entry, outfile_all)
            outfile_all.write("\n")

    outfile_all.close()
