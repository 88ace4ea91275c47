# Imitates hkust-nlp/deita src/deita/selection/scorer/llama_scorer.py (token ids of "1".."6" and the quality template).
from .base import Scorer


class Llama_Scorer(Scorer):
    @property
    def id2score(self):
        return {29896: "1", 29906: "2", 29941: "3", 29946: "4", 29945: "5", 29953: "6"}

    @property
    def quality_template(self):
        return (
            "You are a helpful assistant. Please identify the quality score of the Response corresponding to the Question.\n"
            "#Question#:\n{instruction}\n#Response#:\n{output}\n##Quality: "
        )
