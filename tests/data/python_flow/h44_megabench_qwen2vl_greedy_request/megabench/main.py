# Imitates TIGER-AI-Lab/MEGA-Bench megabench/main.py (argparse -> TaskProcessor), task_processor.py,
# models/model_type.py (ModelType enum, lazily imported model classes) and models/qwen2_vl.py (the
# vLLM-backed Qwen2VL model); run_local_model.sh picks the Qwen2-VL entry.
import argparse
import logging

from task_processor import TaskProcessor
from utils import prepare_megabench_data

if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    logger = logging.getLogger(__name__)

    parser = argparse.ArgumentParser(description="Mega-Bench Benchmark")
    parser.add_argument(
        "--model_type",
        type=str,
        default="GPT_4O_MINI",
        help="Model type to use for processing tasks.",
    )
    parser.add_argument(
        "--model_path",
        type=str,
        default=None,
        help="Model path, if specified, use this rather than the model type when instantiating a model.",
    )
    parser.add_argument("--ngpus", type=int, default=None)
    parser.add_argument("--gpu_utils", type=float, default=None)
    parser.add_argument("--output_file", type=str, default="./all_query_responses.json")
    parser.add_argument("--task_name", type=str, default=None)
    parser.add_argument("--print_response", action="store_true")
    parser.add_argument("--dataset_name", type=str, default="TIGER-Lab/MEGA-Bench")
    parser.add_argument(
        "--dataset_subset_name",
        type=str,
        choices=["core", "open", "core_single_image", "open_single_image"],
        default="core",
    )

    args = parser.parse_args()
    logger.info(f"Arguments: {args}")

    subset_dataset, all_dataset = prepare_megabench_data(args.dataset_name, args.dataset_subset_name)

    additional_args = {}
    if args.ngpus:
        additional_args["ngpus"] = args.ngpus
    if args.gpu_utils:
        additional_args["gpu_utils"] = args.gpu_utils

    task_processor = TaskProcessor(
        output_file=args.output_file,
        model_type=args.model_type,
        print_response=args.print_response,
        model_path=args.model_path,
        **additional_args,
    )
    task_processor.process_all_tasks(single_task_name=args.task_name, data=subset_dataset)
