# Imitates allenai/open-instruct open_instruct/utils.py (ArgumentParserPlus: HfArgumentParser that also reads a
# YAML file given as the only argument).
import sys

from transformers import HfArgumentParser


class ArgumentParserPlus(HfArgumentParser):
    def parse_args_into_dataclasses(self, args=None, **kwargs):
        if len(sys.argv) == 2 and sys.argv[1].endswith(".yaml"):
            return self.parse_yaml_file(sys.argv[1])
        return super().parse_args_into_dataclasses(args=args, **kwargs)
