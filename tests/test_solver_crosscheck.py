"""The fast solver (:func:`solver.solve`) checked against the naive reference solver and
against itself (metamorphic tests), on random tiny games (:mod:`tests.strategies`).

* Agreement: same verdict and same optimum as ``tests/reference.py`` for the objectives
  none / waste / turns, 1–3 players, every ruling option; every win plan replays to a win
  through :mod:`model` and has the value the solver claims.
* Metamorphic: each pruning switch off (``transposition``, ``dominance``, ``bounds``, and all
  three at once) and a tiny table (``table_size=16``) give the same verdict and optimum;
  relabelling the colours of a deal changes neither the verdict nor the optimum, and the
  relabelled plan wins the relabelled deal; the JSON answer (without ``stats.seconds`` and
  rates) is byte-identical across runs and across ``PYTHONHASHSEED`` values.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.cards import Card, ascent, campfire
from model.deal import Deal
from model.records import replay
from model.rules import CHOICES
from solver import solve
from tests.reference import reference_solve
from tests.strategies import examples, tiny_games

OBJECTIVES = ("none", "waste", "turns")
ROOT = Path(__file__).resolve().parent.parent


def fast(full: int) -> settings:
    """Hypothesis settings: ``full`` examples (scaled by the profile: :func:`examples`), no
    deadline (solves vary in time)."""
    return settings(max_examples=examples(full), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@lru_cache(maxsize=4096)
def reference(deal: Deal, objective: str) -> tuple[str, int | None]:
    """The reference answer, cached (a deal is hashable; several tests ask for it)."""
    return reference_solve(deal, objective)


def describe(deal: Deal) -> str:
    """Everything needed to rebuild ``deal`` (for failure messages)."""
    return (f"seed={deal.seed} players={deal.players} rules={deal.rules.to_dict()} "
            f"decks={deal.deck_texts()}")


def plan_value(deal: Deal, result: Any, objective: str) -> int | None:
    """Replay ``result.plan`` (it must win) and recompute its objective value."""
    assert result.plan is not None, "a win needs a plan"
    assert result.plan.deal.decks == deal.decks and result.plan.deal.rules == deal.rules
    r = replay(deal, result.plan.moves)
    assert r.error is None, f"plan rejected: {r.error}; {describe(deal)}"
    assert r.outcome == "win", f"plan ends in {r.outcome}; {describe(deal)}"
    if objective == "waste":
        return len(r.game.out)
    if objective == "turns":
        return len(result.plan.moves)
    return None


def check_against_reference(deal: Deal, objective: str, **switches: Any) -> None:
    """``solve`` with ``switches`` agrees with the reference on ``deal``/``objective``."""
    want_verdict, want_value = reference(deal, objective)
    res = solve(deal, objective, **switches)
    where = f"objective={objective} switches={switches}; {describe(deal)}"
    assert res.verdict == want_verdict, f"verdict {res.verdict} != reference {want_verdict}; {where}"
    if want_verdict == "win":
        got = plan_value(deal, res, objective)
        assert res.value == got, f"claimed value {res.value}, plan has {got}; {where}"
        if objective != "none":
            assert res.value == want_value, f"optimum {res.value} != reference {want_value}; {where}"
            assert res.optimal and res.bound == want_value, where
    else:
        assert res.plan is None and res.value is None, where


# ---- agreement with the reference --------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3])
@fast(80)
@given(data=st.data())
def test_solver_agrees_with_reference(players: int, data: st.DataObject) -> None:
    deal = data.draw(tiny_games(players=st.just(players)), label="deal")
    for objective in OBJECTIVES:
        check_against_reference(deal, objective)


@pytest.mark.parametrize("option,value", [(k, v) for k, vs in CHOICES.items() for v in vs])
@fast(8)
@given(data=st.data())
def test_solver_agrees_for_each_ruling_option(option: str, value: str, data: st.DataObject) -> None:
    deal = data.draw(tiny_games(), label="deal")
    rules = type(deal.rules).from_options({**deal.rules.to_dict(), option: value})
    deal = Deal.from_seed(deal.seed, deal.players, rules)
    for objective in OBJECTIVES:
        check_against_reference(deal, objective)


# ---- metamorphic: switches and table size ------------------------------------------------

VARIANTS = [
    {"transposition": False},
    {"dominance": False},
    {"bounds": False},
    {"transposition": False, "dominance": False, "bounds": False},
    {"table_size": 16},
]


def answer(res: Any) -> tuple[str, int | None]:
    return res.verdict, res.value


@fast(80)
@given(deal=tiny_games())
def test_switches_off_and_tiny_table_change_no_answer(deal: Deal) -> None:
    for objective in ("waste", "turns", "none"):
        base = solve(deal, objective)
        assert base.verdict in ("win", "loss")
        for variant in VARIANTS:
            res = solve(deal, objective, **variant)
            where = f"objective={objective} {variant}; {describe(deal)}"
            if objective == "none":
                assert res.verdict == base.verdict, where
            else:
                assert answer(res) == answer(base), where
            if res.verdict == "win":
                assert plan_value(deal, res, objective) == res.value, where


# ---- metamorphic: relabelling colours ----------------------------------------------------

def relabel(card: Card, perm: dict[str, str]) -> Card:
    """``card`` with its colour letter mapped by ``perm`` (colourless cards unchanged)."""
    if card.is_ascent:
        return ascent(card.value, perm[card.colour])
    if card.is_campfire:
        return campfire(perm[card.colour])
    return card


def relabel_deal(deal: Deal, perm: dict[str, str]) -> Deal:
    """The same deal with every card's colour mapped by ``perm`` (a permutation)."""
    return Deal.from_decks([[relabel(c, perm) for c in d] for d in deal.decks], deal.rules)


def relabel_moves(moves: list, perm: dict[str, str]) -> list:
    from dataclasses import replace

    return [replace(m, card=relabel(m.card, perm) if m.card else None,
                    discard=tuple(relabel(c, perm) for c in m.discard)) for m in moves]


@fast(80)
@given(deal=tiny_games(), data=st.data())
def test_relabelling_colours_changes_nothing_but_colours(deal: Deal, data: st.DataObject) -> None:
    letters = list(deal.rules.colour_letters)
    image = data.draw(st.permutations(letters).filter(lambda p: list(p) != letters), label="perm")
    perm = dict(zip(letters, image))
    other = relabel_deal(deal, perm)
    for objective in OBJECTIVES:
        a, b = solve(deal, objective), solve(other, objective)
        where = f"objective={objective} perm={perm}; {describe(deal)}"
        assert answer(a) == answer(b), where
        if a.verdict == "win":
            # the relabelled plan wins the relabelled deal with the same value
            moved = relabel_moves(a.plan.moves, perm)
            # and it is exactly the plan found for the relabelled deal: the search order is
            # colour-free, so only the colours change
            assert b.plan.moves == moved, where
            r = replay(other, moved)
            assert r.error is None and r.outcome == "win", where
            if objective == "waste":
                assert len(r.game.out) == a.value, where
            if objective == "turns":
                assert len(moved) == a.value, where


# ---- determinism: byte-identical JSON ----------------------------------------------------

def _untimed(stats: Any) -> Any:
    if isinstance(stats, list):  # e.g. the budget's phase records
        return [_untimed(x) for x in stats]
    if not isinstance(stats, dict):
        return stats
    return {k: _untimed(v) for k, v in stats.items()
            if k != "seconds" and "per_second" not in k and "rate" not in k}


def stable_json(res: Any) -> str:
    """``res.to_json()`` without ``stats.seconds`` and rates (``*per_second*``, ``*rate*``),
    also inside ``stats`` (the proof's and the furthest search's), as JSON text with sorted
    keys."""
    d = res.to_json()
    d["stats"] = _untimed(d["stats"])
    return json.dumps(d, sort_keys=True)


@fast(40)
@given(deal=tiny_games(), objective=st.sampled_from(OBJECTIVES))
def test_json_identical_across_runs(deal: Deal, objective: str) -> None:
    assert stable_json(solve(deal, objective)) == stable_json(solve(deal, objective))


#: Deals for the PYTHONHASHSEED check: the tiny preset solo and for 3 players, and a
#: 2-player tiny deal with Campfires and a Bridge under non-default rulings.
HASHSEED_SCRIPT = r"""
import sys
from model.deal import Deal
from model.rules import RuleSet
from solver import solve
from tests.test_solver_crosscheck import stable_json
tiny = RuleSet.tiny()
other = RuleSet.from_options({"rows": "2", "values": "3", "colours": "2", "copies": "1",
    "campfires": "1", "bridges": "1", "summits": "1", "hand_size": "3",
    "bridge_neighbour": "look-through", "bridge_replace_cost": "left",
    "campfire_move_cost": "free", "dealing": "blocks"})
for seed, players, rules in [(1, 1, tiny), (2, 3, tiny), (5, 2, other)]:
    for objective in ("none", "waste", "turns"):
        print(stable_json(solve(Deal.from_seed(seed, players, rules), objective,
                                time_limit=None)))
"""


@pytest.mark.slow
def test_json_identical_across_hash_seeds() -> None:
    outputs = []
    for hashseed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        proc = subprocess.run([sys.executable, "-c", HASHSEED_SCRIPT], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert len(lines) == 9
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
