# Imitates kserve/kserve python/huggingfaceserver/huggingfaceserver/__main__.py: a parser of its own
# with vLLM's serve options added by maybe_add_vllm_cli_parser, parse_known_args, and load_model()
# building AsyncEngineArgs.from_cli_args(args) when the backend is vllm (or auto); trimmed.
from enum import Enum, auto
from pathlib import Path
from typing import cast

from vllm.utils.argparse_utils import FlexibleArgumentParser

from .vllm.utils import (
    build_vllm_engine_args,
    maybe_add_vllm_cli_parser,
    vllm_available,
)
from .vllm.vllm_model import VLLMModel


class Backend(str, Enum):
    auto = auto()
    huggingface = auto()
    vllm = auto()


parser = FlexibleArgumentParser("huggingfaceserver")
parser.add_argument(
    "--model_name", default="model", help="The name that the model is served under."
)
parser.add_argument(
    "--model_dir",
    required=False,
    default="/mnt/models",
    help="A URI pointer to the model binary",
)
parser.add_argument(
    "--model_id", required=False, default=None, help="Huggingface model id"
)
parser.add_argument(
    "--model_revision", required=False, default=None, help="Huggingface model revision"
)
available_backends = ", ".join(f"'{b.name}'" for b in Backend)
parser.add_argument(
    "--backend",
    default="auto",
    type=lambda t: Backend[t],
    help=f"the backend to use to load the model. Can be one of {available_backends}",
)
parser.add_argument(
    "--disable_log_requests", action="store_true", help="Disable logging requests"
)
parser = maybe_add_vllm_cli_parser(parser)

args, _ = parser.parse_known_args()


def load_model():
    engine_args = None
    if args.model_id:
        model_id_or_path = cast(str, args.model_id)
    else:
        model_id_or_path = Path(args.model_dir)

    if args.backend == Backend.vllm and not vllm_available():
        raise RuntimeError("Backend is set to 'vllm' but vLLM is not available")

    if (args.backend == Backend.vllm or args.backend == Backend.auto) and vllm_available():
        args.model = args.model_id or args.model_dir
        args.revision = args.model_revision
        engine_args = build_vllm_engine_args(args)
        model = VLLMModel(args.model_name, engine_args)
    else:
        from .generative_model import HuggingfaceGenerativeModel

        model = HuggingfaceGenerativeModel(args.model_name, model_id_or_path=model_id_or_path)
    model.load()
    return model


if __name__ == "__main__":
    model = load_model()
    model.start()
