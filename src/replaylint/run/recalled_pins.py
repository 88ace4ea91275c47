"""The project pins of a run, read when the first launch asks for one and recalled from the
result cache by a warm run (`RecalledPins`)."""

from __future__ import annotations

import os


class RecalledPins:
    """`project.ProjectPins`, created when the first launch asks for its project's pin. With a
    cache, the pins an earlier run described are recalled while every folder listed and file
    read for them keeps its stamp: a warm run then reads no pin file (nor imports their readers)."""

    def __init__(self, remembered: dict | None = None) -> None:
        self._pins = None
        self._remembered = remembered
        self._key = repr(("pins", os.getcwd()))  # pins name their files relative to the working folder
        self._memo: dict | None = None
        self._recalled_notes: list[str] = []

    def _get(self):
        if self._pins is None:
            from ..engine.project import ProjectPins

            self._pins = ProjectPins()
        return self._pins

    def __call__(self, path: str):
        return self._get()(path)

    def plugins(self, path: str):
        return self._get().plugins(path)

    def package_pin(self, path: str, package: str):
        return self._get().package_pin(path, package)

    def describe_source(self, path: str):
        """The pin a result cache keys `path` by (asked only with a cache: `Checker.cached`)."""
        memo = self._recall()
        directory = os.path.dirname(os.path.abspath(path))
        if directory in memo["answers"]:
            description, notes = memo["answers"][directory]
            self._recalled_notes += [note for note in notes if note not in self._recalled_notes]
            return description
        pins = self._get()
        description = pins.describe_source(path)
        memo["answers"][directory] = [description, pins.notes_for(path)]
        memo["stamps"].update(pins.stamps)
        self._remembered[self._key] = memo
        return description

    def _recall(self) -> dict:
        if self._memo is None:
            from ..workspace.stamps import still_true

            assert self._remembered is not None
            known = self._recalled(self._remembered.get(self._key))
            self._memo = known if known is not None and still_true(known["stamps"]) else {"stamps": {}, "answers": {}}
        return self._memo

    @staticmethod
    def _recalled(value: object) -> dict | None:
        """The pins a result cache remembered (JSON values), or None when `value` is not that:
        {"stamps": stamps, "answers": {folder: [description or null, [note, ...]]}}."""
        from ..workspace.stamps import from_plain

        if type(value) is not dict or value.keys() != {"stamps", "answers"} or type(value["answers"]) is not dict:
            return None
        stamps = from_plain(value["stamps"])
        for answer in value["answers"].values():
            if type(answer) is not list or len(answer) != 2 or type(answer[0]) not in (str, type(None)) or type(answer[1]) is not list:
                return None
            if not set(map(type, answer[1])) <= {str}:
                return None
        return None if stamps is None else {"stamps": stamps, "answers": value["answers"]}

    @property
    def notes(self) -> list[str]:
        found = self._pins.notes if self._pins is not None else []
        return self._recalled_notes + [note for note in found if note not in self._recalled_notes]
