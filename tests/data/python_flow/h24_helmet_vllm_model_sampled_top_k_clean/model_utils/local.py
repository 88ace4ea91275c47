# Imitates princeton-nlp/HELMET model_utils/local.py: LocalModel keeps the generation settings
# handed to it as keywords; the engine classes read them.
class LocalModel:
    def __init__(
        self,
        model_name,
        temperature=0.9,
        top_p=0.9,
        max_length=32768,
        generation_max_length=2048,
        generation_min_length=0,
        do_sample=True,
        stop_newline=False,
        use_chat_template=False,
        system_message=None,
        **kwargs,
    ):
        self.model_name = model_name
        self.temperature = temperature
        self.top_p = top_p
        self.max_length = max_length
        self.generation_max_length = generation_max_length
        self.generation_min_length = generation_min_length
        self.do_sample = do_sample
        self.use_chat_template = use_chat_template
        self.system_message = system_message
        self.stops = ["\n"] if stop_newline else None
