"""The rulings' text for the page's Rules dialog, read from their one source, ``docs/rules.md``.

Each ruling there is a section ``### R6: Cost`` (R1–R13, V1, G1–G7) made of parts that open
with a bold label: ``**Ruling.**`` (the rule as played), ``**Texts.**`` (the printed rules it
rests on), ``**Option.**``/``**Options.**`` and ``**Example.**``/``**Examples.**``. A part is
paragraphs and lists. :func:`rulings` gives them as plain data, the Markdown marks taken off
(emphasis, code, links), so that the page writes them as text, never as HTML:

``[{"id": "R6", "title": "Cost", "parts": [{"label": "Ruling", "blocks": [{"p": "Placing
…"}, {"ol": ["An Ascent card gives u = its value. Stop.", …]}, …]}, …]}, …]``

The file is read once (:func:`functools.lru_cache`). A copy of ascent installed without its
``docs/`` folder has no rulings' text: :class:`RulesMissing`.

>>> [r["id"] for r in rulings()][:3], rulings()[5]["title"], rulings()[5]["parts"][0]["label"]
(['R1', 'R2', 'R3'], 'Cost', 'Ruling')
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The one source of the rulings' text.
RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"

_HEAD = re.compile(r"^### ((?:R1[0-3]|R[1-9]|V1|G[1-7])): (.+)$")
_LABEL = re.compile(r"^\*\*(Ruling|Texts?|Options?|Examples?)\.\*\*\s*(.*)$")
_BULLET = re.compile(r"^(?:- |\d+\. )(.*)$")


class RulesMissing(LookupError):
    """``docs/rules.md`` is not there (a copy installed without its docs)."""


def plain(text: str) -> str:
    """``text`` with its Markdown marks taken off: ``**b**``, ``*i*``, `` `c` ``,
    ``[text](link)`` become ``b``, ``i``, ``c``, ``text``; runs of spaces become one."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def parse(markdown: str) -> list[dict[str, Any]]:
    """The rulings of ``markdown`` (the text of ``docs/rules.md``), in their order there:
    ``{"id", "title", "parts": [{"label", "blocks"}]}``, a block being ``{"p": text}``,
    ``{"ul": [items]}`` or ``{"ol": [items]}`` (see the module's docstring)."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    para: list[str] = []
    items: list[str] = []
    kind = "p"

    def flush() -> None:
        nonlocal para, items
        if current is not None and current["parts"]:
            blocks = current["parts"][-1]["blocks"]
            if para:
                blocks.append({"p": plain(" ".join(para))})
            if items:
                blocks.append({kind: [plain(i) for i in items]})
        para, items = [], []

    for line in markdown.splitlines():
        head = _HEAD.match(line)
        if head or line.startswith(("## ", "### ", "---")):
            flush()
            current = None
            if head:
                current = {"id": head.group(1), "title": plain(head.group(2)), "parts": []}
                out.append(current)
            continue
        if current is None:
            continue
        if not line.strip():
            flush()
            continue
        label = _LABEL.match(line)
        if label:
            flush()
            name = label.group(1)
            name = {"Text": "Texts", "Option": "Options", "Example": "Examples"}.get(name, name)
            current["parts"].append({"label": name, "blocks": []})
            if label.group(2):
                para.append(label.group(2))
            continue
        if not current["parts"]:
            continue
        bullet = _BULLET.match(line)
        if bullet:
            if para:
                flush()
            kind = "ol" if line[0].isdigit() else "ul"
            items.append(bullet.group(1))
        elif items and line.startswith(" "):
            items[-1] += " " + line.strip()
        else:
            if items:
                flush()
            para.append(line.strip())
    flush()
    return out


@lru_cache(maxsize=1)
def rulings() -> list[dict[str, Any]]:
    """The rulings of :data:`RULES_MD` (:func:`parse`); :class:`RulesMissing` when the file
    is not there."""
    try:
        text = RULES_MD.read_text(encoding="utf-8")
    except OSError:
        raise RulesMissing("the rulings' text (docs/rules.md) is not installed with this copy "
                           "of ascent") from None
    return parse(text)


__all__ = ["RULES_MD", "RulesMissing", "parse", "plain", "rulings"]
