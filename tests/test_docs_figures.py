"""The docs quote a measured figure from one place: the table `make bench` writes into
docs/performance.md ("The figures", bench/figures.py), with the sections of performance.md that
say what was measured when a choice was made. Every other doc links there instead of repeating a
number that goes stale (issue 34: three first-start figures in three docs, none of them true)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.figures import BEGIN, END, Run, merged, read_rows

ROOT = Path(__file__).resolve().parents[1]
PERFORMANCE = ROOT / "docs" / "performance.md"
# A duration: "5 s", "0.76 s", "5–20 s", "12-21 s", "3.1ms", "2 min" (not "903 s'appliquent").
DURATION = re.compile(r"(?<![\w{])\d[\d,.]*(?:\s?[–-]\s?\d[\d,.]*)?\s?(?:ms|s|min|seconds|minutes)(?![\w'’])")
# What a doc may say in seconds without having measured it: settings, bounds and examples of output.
NOT_MEASURED = {
    "console.md": ["a poll unanswered for 8 s"],
    "deployment.md": ["retry in 41 s", "200 412 3.1ms"],
    "development.md": ["a server stuck for 90 s fails"],
    "serving.md": ["(30) seconds", "within 40 s", "timeout 10s", "timeout   10s", "timeout     30s"],
}


def docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def quoted(path: Path) -> list[str]:
    """The durations ``path`` quotes outside what it may say (NOT_MEASURED), each with its line."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        allowed = NOT_MEASURED.get(path.name, [])
        rest = line
        for phrase in allowed:
            rest = rest.replace(phrase, "")
        found += [f"{path.name}: {m.group(0)!r} in {line.strip()[:100]!r}" for m in DURATION.finditer(rest)]
    return found


def test_no_doc_but_performance_md_quotes_a_measured_duration():
    assert [q for path in docs() if path != PERFORMANCE for q in quoted(path)] == []


def test_the_allowed_phrases_are_still_there():
    """An allowed phrase that left its doc would let a measured figure in under its words."""
    for name, phrases in NOT_MEASURED.items():
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert [p for p in phrases if p not in text] == [], name


def test_the_generated_table_holds_the_figures_the_docs_point_to():
    text = PERFORMANCE.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    rows = {(section, figure): (value, run) for section, figure, value, run in read_rows(text)}
    figures = [f for _, f in rows]
    for wanted in ("first start, fresh database", "CLI candidates", "after a restart, a first ?rules=xom question"):
        assert wanted in figures
    restart = [f for f in figures if f.startswith("restart, cards stored (best of")]
    assert restart and all(re.fullmatch(r"[\d,.]+ (s|ms|MiB.*|req/s)", v) for v, _ in rows.values())
    assert all(re.match(r"\d{4}-\d\d-\d\d, \d+ CPUs, Python ", run) for _, run in rows.values())


@pytest.mark.parametrize("doc", ["README.md", "docs/install.md", "docs/console.md", "docs/development.md"])
def test_the_docs_that_talk_of_time_link_to_the_figures(doc):
    assert "performance.md#the-" in (ROOT / doc).read_text(encoding="utf-8")


def test_a_run_of_some_sections_keeps_the_others_rows():
    old = [["cards", "build_cards", "4.68 s", "2026-11-27, 2 CPUs, Python 3.11.7, load 1.0→1.0"],
           ["start", "restart", "1.50 s", "2026-11-27, 2 CPUs, Python 3.11.7, load 1.0→1.0"],
           ["start", "gone", "9.00 s", "2026-11-27, 2 CPUs, Python 3.11.7, load 1.0→1.0"],
           ["games", "catch up", "3.00 ms", "2026-11-27, 2 CPUs, Python 3.11.7, load 1.0→1.0"]]
    run = Run("2026-11-28", 2, "3.11.7", "5.0→4.0")
    rows = merged(old, [("start", "restart", 0.76, "s")], run)
    assert rows == [old[0], ["start", "restart", "0.76 s", run.said()], old[3]]
