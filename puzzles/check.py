"""Re-verify a daily puzzle archive (``ascent daily check DIR``).

:func:`check_record` checks one puzzle record against its file name and the derivation of
its date; :func:`check_archive` checks every file and that no day is missing; :func:`find`
gives out one archived record, checked. Problems come
back as one-line strings (an empty list: all is well).

Checks of every file:

* the name, the date, kind and size inside agree; the JSON reads;
* the generator version is known, and the candidate it names is the one its date's
  derivation gives (:func:`puzzles.dates.candidate`); the rules are the size's rules;
* a deal puzzle's decks are that candidate's deal and its solution a game record of the
  whole deal from its first move (``start_move`` 0, nothing else in it); a position
  puzzle's position is what the solution's first ``start_move`` moves reach from that
  candidate's deal;
* the solution replays through :mod:`model` to a win, with exactly ``par`` cards out of the
  game from the puzzle's start (the solution is a par line), and ``par``,
  ``goal.max_out`` and ``features.par`` agree;
* the grade is the band of the recorded score under the recorded thresholds, and the band
  of the date's weekday; every key move is a move of the solution after the start;
* unless ``quick``: the candidate is evaluated again and the whole record must come out
  identical but for the solver's effort (:data:`EFFORT_FEATURES`: a node count changes with
  every improvement of the search) and, for a deal puzzle, but for which par line the
  solver found (:data:`SOLVER_CHOICE`: the solution and the hints taken from it; when a
  deal has several lines spending par, an improved search may return another one). The
  record's own line is then checked instead: it spends exactly par (above) and its hints
  are the ones the generator takes from it (:func:`puzzles.daily.deal_hints`). This
  catches any change to the puzzle, features, score, key moves or par.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any, cast

from model.deal import Deal
from model.errors import AscentError
from model.records import Plan, position_from_data
from puzzles.archive import ArchiveError, dumps_record, iter_files, path_for, read_record
from puzzles.dates import KINDS, SIZES, band_for, candidate
from puzzles.grade import grade_of

KNOWN_VERSIONS = (1, 2)


def check_record(rec: Any, date: _dt.date, kind: str, size: str, quick: bool = False,
                 text: str | None = None) -> list[str]:
    """Problems of one record that should be the ``date``/``kind``/``size`` puzzle."""
    from puzzles import daily

    if not isinstance(rec, dict):
        return ["not a puzzle record (a JSON object)"]
    problems = []
    for key, want in (("date", date.isoformat()), ("kind", kind), ("size", size)):
        if rec.get(key) != want:
            problems.append(f"{key} is {rec.get(key)!r}, the file name says {want!r}")
    gen = rec.get("generator") or {}
    version = gen.get("version")
    if version not in KNOWN_VERSIONS:
        return problems + [f"unknown generator version {version!r}"]
    k = gen.get("candidate")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < 100_000:
        return problems + [f"bad candidate index {k!r}"]
    cand = candidate(date, kind, size, k)
    if gen.get("candidate_values") != cand:
        problems.append(f"candidate {k} is not the date's derivation")
    rules = daily.RULES[size]
    if rec.get("rules") != rules.to_dict():
        problems.append(f"rules are not the {size} rules")
    try:
        deal = Deal.from_seed(cand["seed"], cand["players"], rules)
        plan = Plan.from_json(rec.get("solution"))
        start = plan.extra.get("start_move")
        if not isinstance(start, int) or not 0 <= start <= len(plan.moves):
            return problems + [f"bad solution start_move {start!r}"]
        if plan.deal is None:
            return problems + ["unreadable record: the solution starts from a position, not a deal"]
        if plan.deal.decks != deal.decks or plan.deal.rules != rules:
            problems.append("the solution's deal is not the date's deal")
        if kind == "deal":
            if (rec.get("deal") or {}).get("decks") != deal.deck_texts():
                problems.append("the deal's cards are not the date's deal")
            if rec.get("solution") != Plan(deal, plan.moves, {"start_move": 0}).to_json():
                problems.append("the solution is not a game record of the whole deal from "
                                "its first move (start_move 0)")
        else:
            before = plan.replay(start)
            shown = position_from_data(rec.get("position"))
            if before.error is not None or shown.to_position() != before.game.to_position():
                problems.append("the position is not the one the solution's moves reach")
        before = plan.replay(start)
        after = plan.replay()
        if after.error is not None:
            problems.append(f"the solution has an illegal move: {after.error}")
        elif after.outcome != "win":
            problems.append("the solution does not win")
        else:
            spent = len(after.game.out) - len(before.game.out)
            par = rec.get("par")
            if spent != par:
                problems.append(f"the solution spends {spent} cards, par says {par!r}")
            if rec.get("features", {}).get("par") != par:
                problems.append("par and features.par differ")
            if kind == "deal" and (rec.get("goal") or {}).get("max_out") != par:
                problems.append("the goal's limit and par differ")
        later = [m.to_json() for m in plan.moves[start:]]
        for km in rec.get("key_moves") or []:
            if not isinstance(km, dict) or km.get("move") not in later:
                problems.append(f"key move {km!r} is not in the solution")
    except (AscentError, AttributeError, KeyError, TypeError, ValueError) as exc:
        return problems + [f"unreadable record: {exc}"]
    try:
        # whatever they hold: a bad one raises TypeError or ValueError, caught below
        thresholds = {(kind, size): tuple(cast(list, gen.get("thresholds")))}
        if rec.get("grade") != grade_of(kind, size, cast(float, rec.get("score")), thresholds):
            problems.append("the grade is not the band of the score")
    except (TypeError, ValueError):
        problems.append("bad score or thresholds")
    if rec.get("grade") != band_for(date):
        problems.append(f"grade {rec.get('grade')!r}, but {date:%A} is {band_for(date)}")
    if not quick and not problems:
        fresh = daily.evaluate(kind, size, cand, version)
        again = daily.record(date, kind, size, k, cand, fresh, version) if fresh else None
        if again is None or _comparable(again) != _comparable(rec):
            problems.append("the record differs from its candidate evaluated again "
                            "(features, score, key moves or par were changed)")
        elif kind == "deal" and rec.get("key_moves") != daily.deal_hints(deal, plan.moves):
            problems.append("the key moves are not the hints of the solution")
    return problems


#: Features that measure the solver's effort, not the puzzle: they change with every
#: improvement of the search (a node count), so a frozen record is not compared on them.
EFFORT_FEATURES = ("solver_nodes",)


#: Parts of a deal puzzle record that depend on which of the lines spending par the solver
#: found, not on the puzzle: the full check verifies the record's own line instead.
SOLVER_CHOICE = ("solution", "key_moves")


def _comparable(rec: dict[str, Any]) -> str:
    """``rec`` as compared by the full check: the whole record but its effort features and,
    for a deal puzzle, its solver's choice of par line (:data:`SOLVER_CHOICE`)."""
    rec = json.loads(json.dumps(rec))
    for k in EFFORT_FEATURES:
        (rec.get("features") or {}).pop(k, None)
    if rec.get("kind") == "deal":
        for k in SOLVER_CHOICE:
            rec.pop(k, None)
    return dumps_record(rec)


def check_archive(root: str | Path, quick: bool = False, first: _dt.date | None = None,
                  last: _dt.date | None = None,
                  progress: Any = None) -> tuple[int, list[str]]:
    """Check every puzzle file under ``root``: ``(files checked, problems)``. Days are
    missing when a kind/size that the archive holds lacks a date between the first and the
    last date of the archive (or ``first``..``last`` when given)."""
    problems = []
    seen: dict[tuple[str, str], set] = {}
    files = list(iter_files(root))
    for path, date, kind, size in files:
        rel = path.relative_to(root)
        try:
            text = path.read_text(encoding="utf-8")
            rec = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            problems.append(f"{rel}: unreadable ({exc.__class__.__name__})")
            continue
        seen.setdefault((kind, size), set()).add(date)
        for p in check_record(rec, date, kind, size, quick, text):
            problems.append(f"{rel}: {p}")
        if progress is not None:
            progress(path)
    dates = [d for ds in seen.values() for d in ds]
    if dates or (first and last):
        lo = first or min(dates)
        hi = last or max(dates)
        pairs = sorted(seen) if seen else [(k, s) for k in KINDS for s in SIZES]
        day = lo
        while day <= hi:
            for kind, size in pairs:
                if day not in seen.get((kind, size), set()):
                    problems.append(f"missing: {day.isoformat()} {kind} {size}")
            day += _dt.timedelta(days=1)
    return len(files), problems


def find(root: str | Path, date: _dt.date, kind: str, size: str) -> dict[str, Any] | None:
    """The archived record of ``date``/``kind``/``size``, or ``None`` if it is not there.

    The record is checked before it is given out (the quick checks of
    :func:`check_record`: name, derivation of the date, deal or position,
    solution replayed to a win spending par, grade): :class:`ArchiveError` for a file that
    cannot be read or does not pass, its message naming the file relative to ``root``."""
    p = path_for(root, date, kind, size)
    if not p.is_file():
        return None
    rec = read_record(p, root)
    problems = check_record(rec, date, kind, size, quick=True)
    if problems:
        raise ArchiveError(f"{p.relative_to(root)}: not a valid puzzle record ({problems[0]}"
                           + (f"; {len(problems) - 1} more problems)" if len(problems) > 1 else ")"))
    return rec
