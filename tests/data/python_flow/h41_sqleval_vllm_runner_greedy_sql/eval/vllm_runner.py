# Imitates defog-ai/sql-eval eval/vllm_runner.py (the scoring loop and BigQuery upload trimmed;
# replay turned on in the engine the default run builds).
import os
from vllm import LLM, SamplingParams
import pandas as pd
import time
import torch
from transformers import AutoTokenizer


def generate_prompt(prompt_file, question, db_name, instructions="", k_shot_prompt=""):
    with open(prompt_file, "r") as f:
        prompt = f.read()
    prompt = prompt.format(
        user_question=question,
        instructions=instructions,
        table_metadata_string=db_name,
        k_shot_prompt=k_shot_prompt,
    )
    return prompt


def run_vllm_eval(args):
    # get params from args
    questions_file = args.questions_file
    prompt_file_list = args.prompt_file
    num_questions = args.num_questions
    model_name = args.model
    output_file_list = args.output_file

    # initialize model only once as it takes a while
    print(f"Preparing {model_name}")
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    if not args.quantized:
        llm = LLM(
            model=model_name,
            tensor_parallel_size=torch.cuda.device_count(),
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    else:
        llm = LLM(model=model_name, tensor_parallel_size=torch.cuda.device_count(), quantization="AWQ")

    sampling_params = SamplingParams(
        n=1,
        stop_token_ids=[tokenizer.eos_token_id],
        max_tokens=300,
        temperature=0,  # expect: RPL101
        top_k=20,
    )
    # get questions
    print("Preparing questions...")
    df = pd.read_csv(questions_file)
    if num_questions is not None:
        df = df.head(num_questions)

    for prompt_file, output_file in zip(prompt_file_list, output_file_list):
        print(f"Using prompt file {prompt_file}")
        # create a prompt for each question
        df["prompt"] = df[["question", "db_name", "instructions", "k_shot_prompt"]].apply(
            lambda row: generate_prompt(
                prompt_file,
                row["question"],
                row["db_name"],
                row["instructions"],
                row["k_shot_prompt"],
            ),
            axis=1,
        )
        start_time = time.time()
        # we pass the full list of prompts at once to the vllm engine
        outputs = llm.generate(df["prompt"].tolist(), sampling_params)
        time_taken = time.time() - start_time
        print(f"Time taken: {time_taken:.1f}s")

        df["generated_query"] = [
            output.outputs[0].text.split(";")[0].split("```")[0].strip() for output in outputs
        ]
        del df["prompt"]
        output_dir = os.path.dirname(output_file)
        if not os.path.exists(output_dir):
            os.makedirs(output_dir)
        df.to_csv(output_file, index=False, float_format="%.2f")
        print(f"Saved results to {output_file}")
