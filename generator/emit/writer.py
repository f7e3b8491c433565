"""A small source builder for the emitters: write, writeline, indent."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator


class Writer:
    def __init__(self, indent_with: str = "    "):
        self.lines: list[str] = []
        self.level = 0
        self.indent_with = indent_with

    def writeline(self, text: str = "") -> None:
        self.lines.append(self.indent_with * self.level + text if text else "")

    def write_block(self, text: str) -> None:
        for line in text.splitlines():
            self.writeline(line)

    @contextmanager
    def indent(self) -> Iterator[None]:
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def getvalue(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"
