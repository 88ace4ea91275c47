# Imitates Marker-Inc-Korea/AutoRAG autorag/nodes/generator/vllm.py (the package's module table)
from .vllm import vllm

SUPPORT_MODULES = {
	"vllm": vllm,
}
