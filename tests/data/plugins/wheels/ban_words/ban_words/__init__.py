"""A logits-processor plugin whose import leaves a mark: preflight must never import it."""

import os

with open(os.environ.get("PLUGIN_IMPORTED_MARK", os.devnull), "w") as mark:
    mark.write("ban_words was imported\n")


class BanWords:
    pass
