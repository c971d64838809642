"""What an image draws, recorded where it is drawn: the texts (with their boxes), the
badges and the tile markers a ``render`` module asks for. Tests check layout with these
(no two texts on one line overlap) instead of comparing pixels."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest


@dataclass(frozen=True)
class DrawnText:
    """One ``draw_text`` call: its line (``y``), horizontal extent and font size."""

    y: float
    left: float
    right: float
    text: str
    size: int = 0


def record_texts(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[DrawnText]:
    """Every text ``module`` draws from now on (through its ``draw_text``), in order."""
    drawn: list[DrawnText] = []
    original = module.draw_text

    def recording(canvas: Any, text: str, x: float, y: float, *args: Any, **kwargs: Any) -> int:
        width: int = original(canvas, text, x, y, *args, **kwargs)
        anchor = kwargs.get("anchor", "l")
        left = x - width if anchor == "r" else x - width / 2 if anchor == "m" else x
        size = args[0] if args else kwargs.get("size", 0)
        drawn.append(DrawnText(y, left, left + width, text, size))
        return width

    monkeypatch.setattr(module, "draw_text", recording)
    return drawn


def assert_apart(drawn: list[DrawnText], line_height: int = 8) -> None:
    """No two texts on one line (``y`` within about ``line_height``) overlap."""
    lines: dict[int, list[DrawnText]] = {}
    for text in drawn:
        lines.setdefault(round(text.y / line_height), []).append(text)
    for line in lines.values():
        line.sort(key=lambda text: text.left)
        for first, second in itertools.pairwise(line):
            assert first.right <= second.left + 1, (first.text, second.text)


def record_calls(
    monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str, argument: int
) -> list[Any]:
    """The ``argument``-th positional argument of every call of ``module.name`` (a
    badge's text, a tile sprite's marker) from now on."""
    seen: list[Any] = []
    original = getattr(module, name)

    def recording(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[argument] if len(args) > argument else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, recording)
    return seen
