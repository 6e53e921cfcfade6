"""The search's bounds as objects (:mod:`solver.bound_set`).

* Admissibility on tiny games (hypothesis, 1–3 players, every ruling option, every
  objective): from random mid-game positions, every bound's ``lower`` is at most the optimum
  the naive reference finds from there (``INF`` only where it finds no win), and no bound
  cuts a budget the optimum fits in; a witness at ``budget = INF`` only where the reference
  finds no win.
* The same cuts as before: :meth:`BoundSet.fails` gives the answer and the ``pruned`` key of
  the inline ``bound_fails`` it replaced (:func:`old_bound_fails`, kept here verbatim) on
  random positions, budgets and switches; and the pure-Python search keeps the node counts
  and ``pruned`` recorded before the change on a fixed set of deals
  (``tests/data/bound_set_counts.json``, from ``benchmarks.bound_set``).
* Every witness kind is put into words by :func:`solver.reasons.describe`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.deal import Deal
from model.game import Game
from model.rules import RuleSet
from solver.bound_set import (
    BOUNDS,
    WITNESS_KINDS,
    BridgeCost,
    CardsShort,
    HeightShort,
    MovesShort,
    PlayerShort,
    SummitsGone,
    WasteShort,
)
from solver.bounds import Bounds
from solver.exhaustive import Search, solve
from solver.reasons import LossReason, describe
from solver.state import INF, Switches
from tests.reference import reference_solve
from tests.strategies import examples, random_position, tiny_games

FAST = settings(max_examples=examples(60), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
COUNTS = Path(__file__).parent / "data" / "bound_set_counts.json"
PRUNED = ("summit", "height", "cards", "objective", "spare")


def old_bound_fails(self: Bounds, budget: int) -> bool:
    """``Bounds.bound_fails`` as it was before :mod:`solver.bound_set` (verbatim)."""
    rem = self.remaining
    t = self.t
    if rem[t.summit] == 0:
        self.pruned["summit"] += 1
        return True
    need_total = self._slots_below_peak - self.filled + self.n_bridges
    if self.n_remaining < need_total + 1:
        self.pruned["cards"] += 1
        return True
    if self.P > 1:
        n = need_total + 1
        hands, decks, ptr = self.hands, self.decks, self.ptr
        for q in range(self.P):
            turns = (n - (q - self.to_move) % self.P + self.P - 1) // self.P
            if len(hands[q]) + len(decks[q]) - ptr[q] < turns:
                self.pruned["cards"] += 1
                return True
    if self.objective == "turns" and need_total + 1 > budget:
        self.pruned["objective"] += 1
        return True
    if (self.objective == "turns" and self.P > 1 and self.sw.window_players
            and budget < INF and self.players_turns_bound(budget) > budget):
        self.pruned["objective"] += 1
        return True
    rows, rowlen = self.rows, self.rowlen
    by_row = self.rem_by_maxrow
    need = 0
    have = 0
    bridge = t.bridge
    nb = self.n_bridges
    for h in range(self.R, 0, -1):
        row = rows[h - 1]
        need += rowlen[h - 1] - len(row)
        if nb:
            need += row.count(bridge)
        have += by_row[h]
        if have < need:
            self.pruned["height"] += 1
            return True
    waste_b = budget if (self.objective == "waste" and budget < INF) else INF
    spare = (self.n_remaining - (self._slots_total - self.filled)) if self.sw.budget else INF
    cap = min(waste_b, spare)
    if cap < INF and self.waste_lower_bound(cap) > cap:
        self.pruned["objective" if cap == waste_b else "spare"] += 1
        return True
    return False


def _state(game: Game, objective: str, sw: Switches | None = None) -> Bounds:
    s = Search(game, objective, sw or Switches(core=False), None, None)
    s.pruned = dict.fromkeys(PRUNED, 0)
    return s


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 9), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste", "turns"]))
def test_every_bound_is_admissible(deal: Deal, steps: int, seed: int, objective: str) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    verdict, value = reference_solve(game, objective)
    s = _state(game, objective)
    where = (deal.seed, deal.players, deal.rules.to_dict(), steps, seed, objective)
    for b in BOUNDS.active(s.P, objective):
        lb = b.lower(s, INF)
        w = b.witness(s, INF)
        if verdict == "loss":
            continue
        opt = value or 0
        assert lb < INF and lb <= opt, (b, lb, value, where)
        assert w is None, (b, w, where)
        for budget in (opt, opt + 1, opt + 3):  # a budget the optimum fits in is never cut
            v = b.lower(s, budget)
            assert v <= budget, (b, budget, v, value, where)
            assert b.witness(s, budget) is None, (b, budget, where)
    assert (BOUNDS.witness(s, INF) is None) or verdict == "loss"


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 9), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste", "turns"]),
       budgets=st.lists(st.integers(0, 12), min_size=1, max_size=4),
       window_players=st.booleans(), spare=st.booleans(), bridge_costs=st.booleans())
def test_the_bound_set_cuts_as_the_inline_bounds_did(deal: Deal, steps: int, seed: int,
                                                     objective: str, budgets: list[int],
                                                     window_players: bool, spare: bool,
                                                     bridge_costs: bool) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    sw = Switches(core=False, window_players=window_players, budget=spare,
                  bridge_costs=bridge_costs)
    old, new = _state(game, objective, sw), _state(game, objective, sw)
    for budget in [*budgets, INF]:
        cut = old_bound_fails(old, budget)
        assert BOUNDS.fails(new, budget) == cut, budget
        assert new.pruned == old.pruned, (budget, old.pruned, new.pruned)
        # a cut has a witness, and no witness without a cut
        assert (BOUNDS.witness(new, budget) is not None) == cut, budget


@FAST
@given(deal=tiny_games(), steps=st.integers(0, 9), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "turns"]), budget=st.integers(0, 12))
def test_a_bound_with_its_switch_off_never_cuts(deal: Deal, steps: int, seed: int,
                                                objective: str, budget: int) -> None:
    game = random_position(deal, random.Random(seed), steps)
    if game.is_over():
        return
    for b in BOUNDS.bounds:
        if b.switch is None or not b.applies(deal.players, objective):
            continue
        assert hasattr(Switches(), b.switch), b
        s = _state(game, objective, Switches(core=False, **{b.switch: False}))
        assert b.lower(s, budget) == 0 and b.witness(s, budget) is None, b


def test_the_python_search_keeps_its_node_counts_and_cuts() -> None:
    """Recorded on main before the bounds became objects (``benchmarks.bound_set``, a
    smaller node limit): the same verdict, value, nodes and ``pruned`` for every row."""
    recorded = json.loads(COUNTS.read_text())
    limit = recorded["node_limit"]
    for row in recorded["rows"]:
        options, players, seed, objective = row["case"]
        deal = Deal.from_seed(seed, players, RuleSet.from_options(options.split(",")))
        res = solve(deal, objective, node_limit=limit, core=False)
        got = {"verdict": res.verdict, "value": res.value, "nodes": res.stats["nodes"],
               "pruned": res.stats["pruned"]}
        assert got == {k: row[k] for k in got}, (row["case"], got)


WITNESSES = [
    SummitsGone(),
    CardsShort(slots=4, bridges=1, left=3),
    PlayerShort(player=2, left=1, turns=2),
    HeightShort(low=2, top=3, need=5, bridges=1, have=3),
    HeightShort(low=3, top=3, need=2, bridges=0, have=0),
    MovesShort(moves=9, budget=7, turn_order=False),
    MovesShort(moves=9, budget=7, turn_order=True),
    # the Bridges' replacements above the cards to spare; one can never be paid; too dear
    WasteShort(lower=5, budget=INF, spare=3, slots=4, bridges=1,
               costs=(BridgeCost(1, 2, 4, "4r"),), costs_sum=4, hand_size=5, top=3,
               prefix=0, prefix_why=-1, windows=None),
    WasteShort(lower=INF, budget=INF, spare=3, slots=4, bridges=1,
               costs=(BridgeCost(1, 2, INF, None),), costs_sum=INF, hand_size=5, top=3,
               prefix=0, prefix_why=-1, windows=None),
    WasteShort(lower=INF, budget=INF, spare=3, slots=4, bridges=1,
               costs=(BridgeCost(1, 2, 5, "1g"),), costs_sum=INF, hand_size=5, top=3,
               prefix=0, prefix_why=-1, windows=None),
    # solo: the deck holds no Summit; the next one too deep; the high cards too deep
    WasteShort(lower=INF, budget=INF, spare=3, slots=4, bridges=0, costs=(), costs_sum=0,
               hand_size=3, top=3, prefix=INF, prefix_why=0, windows=None),
    WasteShort(lower=5, budget=INF, spare=3, slots=4, bridges=0, costs=(), costs_sum=0,
               hand_size=3, top=3, prefix=9, prefix_why=0, windows=None),
    WasteShort(lower=5, budget=INF, spare=3, slots=4, bridges=0, costs=(), costs_sum=0,
               hand_size=3, top=3, prefix=9, prefix_why=2, windows=None),
    # the waste budget, not the cards to spare
    WasteShort(lower=3, budget=2, spare=6, slots=4, bridges=0, costs=(), costs_sum=0,
               hand_size=3, top=3, prefix=7, prefix_why=0, windows=None),
    # 2–5 players: the deck windows
    WasteShort(lower=5, budget=INF, spare=3, slots=4, bridges=0, costs=(), costs_sum=0,
               hand_size=3, top=3, prefix=0, prefix_why=-1, windows=5),
    WasteShort(lower=5, budget=4, spare=9, slots=4, bridges=0, costs=(), costs_sum=0,
               hand_size=3, top=3, prefix=0, prefix_why=-1, windows=5),
]


@pytest.mark.parametrize("w", WITNESSES, ids=repr)
def test_every_witness_is_put_into_words(w) -> None:
    r = describe(w)
    assert isinstance(r, LossReason) and r.text.endswith(".") and "{" not in r.text
    assert "-1" not in r.text and str(INF) not in r.text, r.text
    assert r.kind in {"summit", "cards", "turns", "height", "bridges", "deck", "windows",
                      "budget"}
    assert (r.kind == "budget") == (getattr(w, "budget", INF) < INF
                                    and getattr(w, "spare", INF) > w.budget), r


def test_the_witnesses_cover_every_kind() -> None:
    assert {type(w) for w in WITNESSES} == set(WITNESS_KINDS)
    with pytest.raises(TypeError):
        describe(object())  # type: ignore[arg-type]


def test_the_height_witness_counts_slots_and_bridges_apart() -> None:
    text = describe(HeightShort(low=2, top=3, need=5, bridges=1, have=3)).text
    assert text.startswith("Rows 2–3 still have 4 empty slots and 1 Bridge to fill, but only "
                           "3 cards left can go that high"), text


def test_the_benchmark_refuses_bad_input_and_never_overwrites_its_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m benchmarks.bound_set``: ``--repeat 0`` (an "inf" CPU time, written as
    non-JSON ``Infinity``), a node limit below 1, and a ``--json`` file that exists (the
    user's, which it overwrote) are one line on stderr and exit 2, before any solve."""
    from benchmarks import bound_set as bench

    mine = tmp_path / "mine.json"
    mine.write_text("keep me\n", encoding="utf-8")
    for argv in (["--repeat", "0"], ["--node-limit", "0"], ["--node-limit", "-5"],
                 ["--json", str(mine)]):
        assert bench.main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert "error" in err and len(err.splitlines()) == 1
    assert mine.read_text(encoding="utf-8") == "keep me\n"
