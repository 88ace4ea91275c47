# MEGA-Bench's TaskProcessor (megabench/task_processor.py), trimmed to building the model and querying it.
import json
import logging

from models.model_type import ModelType


class TaskProcessor:
    def __init__(
        self,
        output_file,
        model_type,
        print_response=False,
        model_path=None,
        **kwargs,
    ):
        self.output_file = output_file
        self.model_type = ModelType.from_string(model_type)
        self.print_response = print_response
        self.model_path = model_path
        self.model_kwargs = kwargs

    def process_task(self, task_item, model):
        if model is None:
            model = self.model_type.get_model_instance(
                print_response=self.print_response,
                model_path=self.model_path,
                **self.model_kwargs,
            )
        task_name = task_item["task_name"]
        query_data = {"queries": task_item.get("task_samples", [])}
        logging.info(f"Processing {task_name}...")
        return model.query(task_name=task_name, query_data=query_data, position=0)

    def process_all_tasks(self, single_task_name=None, data=None):
        if single_task_name:
            tasks_to_process = [item for item in data if item["task_name"] == single_task_name]
        else:
            tasks_to_process = data

        # Load the model outside of the multiprocessing context if running locally
        if "KEY" in self.model_type.value[2]:
            model = None
        else:
            model = self.model_type.get_model_instance(
                print_response=self.print_response,
                model_path=self.model_path,
                **self.model_kwargs,
            )

        all_query_responses = []
        for task in tasks_to_process:
            all_query_responses.append(self.process_task(task, model))
        with open(self.output_file, "w", encoding="utf-8") as f:
            json.dump(all_query_responses, f, ensure_ascii=False, indent=4)
