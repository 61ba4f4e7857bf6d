"""The figures `make bench` measured, as the one table the docs quote: a block of docs/performance.md
("The figures") that each run rewrites. A run of some sections only (`--only start`) replaces those
sections' rows and keeps the others', each row saying which run measured it. The other docs link
to this table rather than repeat its numbers (tests/test_docs_figures.py holds them to it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BEGIN = "<!-- figures: begin (written by make bench: bench/figures.py; don't edit by hand) -->"
END = "<!-- figures: end -->"
HEADER = ["| section | figure | value | measured on |", "| --- | --- | ---: | --- |"]


@dataclass(frozen=True)
class Run:
    """Where and when a run measured: the date, the machine's CPUs, Python, the load average."""

    date: str
    cpus: int
    python: str
    load: str

    def said(self) -> str:
        return f"{self.date}, {self.cpus} CPUs, Python {self.python}, load {self.load}"


def read_rows(text: str) -> list[list[str]]:
    """The table's rows (section, figure, value, measured on) as the block holds them."""
    if BEGIN not in text:
        return []
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = []
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("|") and len(cells) == 4 and cells[0] not in ("section", "---"):
            rows.append(cells)
    return rows


def merged(old: list[list[str]], new: list[tuple[str, str, float, str]], run: Run) -> list[list[str]]:
    """The rows of ``new`` (this run's: section, figure, value, unit), then those of ``old`` whose
    section this run didn't measure, in the order of the sections as first met."""
    measured = {section for section, *_ in new}
    rows = [[section, figure, f"{value:,.2f} {unit}", run.said()] for section, figure, value, unit in new]
    rows += [row for row in old if row[0] not in measured]
    order = list(dict.fromkeys(row[0] for row in [*old, *rows]))
    return sorted(rows, key=lambda row: order.index(row[0]))


def write_figures(path: Path, new: list[tuple[str, str, float, str]], run: Run) -> None:
    """Rewrite the block of ``path`` with this run's rows merged in (the block is added at the end if absent)."""
    text = path.read_text(encoding="utf-8")
    rows = merged(read_rows(text), new, run)
    block = "\n".join([BEGIN, *HEADER, *("| " + " | ".join(row) + " |" for row in rows), END])
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
