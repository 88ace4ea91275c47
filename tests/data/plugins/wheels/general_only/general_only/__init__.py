"""A general plugin (it may register anything): not a logits processor."""


def register():
    pass
