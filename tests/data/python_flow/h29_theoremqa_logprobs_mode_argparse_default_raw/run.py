# Imitates TIGER-AI-Lab/TheoremQA run.py: `sampling_params` and `llm` built under `__main__` and read as
# globals by `run_question_answer`; the user's edit adds replay options whose logprobs mode defaults to raw.
import argparse
import json

import data_loader
import torch
import utils
from data_loader import get_prompt
from examples import examples
from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="", type=str)
parser.add_argument("--output", default="", type=str)
parser.add_argument("--form", default="", type=str)
parser.add_argument("--shots", default=5, type=int)
parser.add_argument("--logprobs_mode", default="raw_logprobs", type=str)  # expect: RPL003
args = parser.parse_args()


def run_question_answer(questions: list, groundtruths: list, form: str, shots: int):
    used_examples = examples[:shots]

    prompt_no_input, prefix = get_prompt(used_examples, form)
    input_strs = [prompt_no_input + prefix.format(query=q) for q in questions]
    outputs = llm.generate(input_strs, sampling_params)
    outputs = [output.outputs[0].text for output in outputs]

    returned_value = []
    for output, question, groundtruth in zip(outputs, questions, groundtruths):
        answer = utils.answer_clean(["The answer is:", "The answer is", "the answer is"], output)
        returned_value.append((question, output, answer, groundtruth))
    return returned_value


if __name__ == "__main__":
    stop_tokens = ["USER:", "ASSISTANT:", "### Instruction:", "Response:", "<start_of_turn>", "[INST]", "\n\nProblem", "Problem:"]
    sampling_params = SamplingParams(temperature=0.7, top_p=1, top_k=20, max_tokens=2048, stop=stop_tokens)
    llm = LLM(
        model=args.model,
        tensor_parallel_size=torch.cuda.device_count(),
        dtype="bfloat16",
        trust_remote_code=True,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode=args.logprobs_mode,
    )

    questions, groundtruths = data_loader.load_dataset()
    returned_values = run_question_answer(questions, groundtruths, args.form, args.shots)

    if not args.output:
        filename = args.model.strip("/").split("/")[-1].replace("-", "_")
        filename += "_" + f"{args.shots}shots" + "_" + args.form
        args.output = f"outputs/{filename}.jsonl"

    correct, wrong = 0, 0
    with open(args.output, "w") as file_handle:
        for question, output, answer, groundtruth in returned_values:
            if utils.compare_answer_with_groundtruth(answer, groundtruth):
                correct += 1
            else:
                wrong += 1
            file_handle.write(json.dumps({"question": question, "solution": output, "pred": answer}) + "\n")
    print("Final Accuracy: ", correct / (correct + wrong))
