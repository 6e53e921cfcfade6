"""The move-generation corpus: the four implementations of the rules generate the same moves.

``tests/data/perft.json.gz`` (made by ``python -m benchmarks.perft generate``) holds positions
from random legal play out of seeded deals, each with every legal move and its cost as
:mod:`model` generates them. On every position (a twentieth of them in the quick loop, all of them
in the ``slow`` run) the Python search state (:mod:`solver.state`), the compiled core
(``solver/_core.c``) and the compiled playout engine (``bots/_playout.c``) must give the same
placements and costs, the same expanded moves (the search engines), the same outcome and the
same position after each placement and a discard, as :mod:`model`; :mod:`model` itself must
still give what the corpus recorded. A hypothesis test does the same from random positions.
Positions an implementation does not represent are counted and must be exactly the ones it
documents (the Goats module: :func:`solver.generic.needs_generic`,
:func:`bots.fastplay.supported`).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import perft
from bots import fastplay
from model.rules import CHOICES, GOAT_CHOICES, INT_RANGES, MOVE_RULINGS, RuleSet
from solver.exhaustive import CORE_AVAILABLE, core_status
from solver.generic import needs_generic
from solver.state import State

CORPUS = perft.load_corpus()
POSITIONS = CORPUS["positions"]
_RULES: dict[str, RuleSet] = {}


def rules_of(entry: dict) -> RuleSet:
    """The rule set of a corpus position (cached by its JSON text)."""
    key = repr(sorted(entry["position"]["rules"].items()))
    if key not in _RULES:
        _RULES[key] = RuleSet.from_options(entry["position"]["rules"])
    return _RULES[key]
QUICK_EVERY = 20  # the quick loop checks every 20th position; the slow run all of them

AVAILABLE = {"state": True, "core": CORE_AVAILABLE, "playout": fastplay.AVAILABLE}
WHY_NOT = {"core": f"the compiled core does not run: {core_status()}",
           "playout": "the compiled playout engine (bots._playout) is not built"}


def impl_param(name: str):
    return pytest.param(name, id=name, marks=pytest.mark.skipif(
        not AVAILABLE[name], reason=WHY_NOT.get(name, "")))


IMPLS = [impl_param(n) for n in perft.IMPLEMENTATIONS]


def test_the_corpus_covers_sizes_players_and_every_option() -> None:
    """At least 2,000 positions, under 1 MB; the ladder geometries and the standard game with
    1–5 players under every combination of the move rulings; random geometries reaching both
    ends of every integer parameter; every combination of the Goats options; mid-game
    positions with Bridges, Campfire moves, Bridge replacements, the Summit, wins and losses."""
    assert len(POSITIONS) >= 2000
    assert perft.CORPUS.stat().st_size < 1_000_000
    seen = set()
    ends: dict[str, set[int]] = {k: set() for k in INT_RANGES}
    goats = set()
    for e in POSITIONS:
        pos = e["position"]
        rules = rules_of(e)
        group = e["source"].split(":")[0]
        if group == "ladder":
            geo = (rules.rows, rules.values, rules.colours, rules.hand_size)
            seen.add((geo, pos["players"], tuple(getattr(rules, k) for k in MOVE_RULINGS)))
        for k, (lo, hi) in INT_RANGES.items():
            if getattr(rules, k) in (lo, hi):
                ends[k].add(getattr(rules, k))
        if rules.goats_on:
            goats.add(tuple(getattr(rules, k) for k in GOAT_CHOICES))
    combos = 1
    for k in MOVE_RULINGS:
        combos *= len(CHOICES[k])
    assert len(seen) == len(perft.LADDER) * 5 * combos
    assert all(len(v) == 2 for v in ends.values()), ends
    assert len(goats) == len(perft.goat_combos())
    kinds = {"B": 0, "C": 0, "S": 0, "onto": 0}
    for e in POSITIONS:
        cards = {p[0][0] for p in e["placements"]}
        kinds["B"] += "B" in cards
        kinds["C"] += "C" in cards
        kinds["S"] += "S" in cards
        kinds["onto"] += any(p[6] for p in e["placements"])
    outcomes = [e["outcome"] for e in POSITIONS]
    assert min(kinds.values()) >= 40, kinds
    assert outcomes.count("win") >= 20 and outcomes.count("loss") >= 20
    assert sum(bool(e.get("goat_moves")) for e in POSITIONS) >= 50


def _check(rep: perft.Report, entries: list[dict], impl: str) -> None:
    """No difference; the positions ``impl`` does not represent are exactly the Goats ones,
    and that is what it documents; every other position was compared."""
    assert not rep.differences, "\n".join(rep.differences[:40])
    goat_ids = {e["id"] for e in entries if e["position"]["rules"].get("goats") == "on"}
    assert set(rep.unsupported[impl]) == goat_ids
    for e in entries:
        rules = rules_of(e)
        documented = needs_generic(rules) if impl in ("state", "core") else not fastplay.supported(rules)
        assert documented == (e["id"] in goat_ids), e["id"]
    assert rep.compared[impl] == len(entries) - len(goat_ids)
    assert rep.compared["model"] == len(entries)


@pytest.mark.parametrize("impl", IMPLS)
def test_implementations_generate_the_corpus_moves_sampled(impl: str) -> None:
    """Every 20th position (the quick loop): ``impl`` against :mod:`model` and the corpus."""
    entries = POSITIONS[::QUICK_EVERY]
    rep = perft.check_corpus(CORPUS, QUICK_EVERY, (impl,))
    _check(rep, entries, impl)
    assert rep.successors[impl] > 3 * rep.compared[impl]


@pytest.mark.slow
def test_implementations_generate_the_corpus_moves() -> None:
    """Every position of the corpus: each implementation that runs here against
    :mod:`model` and the corpus. One pass over the corpus for all of them: :mod:`model`'s
    moves and successors of each position are computed once, not once per implementation
    (the three passes of one implementation each cost 2.3 times the one pass for all)."""
    impls = tuple(n for n in perft.IMPLEMENTATIONS if AVAILABLE[n])
    assert "state" in impls  # the Python search state always runs
    rep = perft.check_corpus(CORPUS, 1, impls)
    for impl in impls:
        _check(rep, POSITIONS, impl)
        if impl != "playout":
            # the searches list the Summit alone where it can be played, and no move once the
            # game is won: counted, not skipped
            assert rep.summit_only[impl] >= 20 and rep.won[impl] >= 20
    missing = [WHY_NOT[n] for n in perft.IMPLEMENTATIONS if n not in impls]
    if missing:  # what did run passed; say what did not, as the parametrized skips did
        pytest.skip("; ".join(missing))


@pytest.mark.slow
def test_the_generator_gives_the_committed_corpus() -> None:
    """``python -m benchmarks.perft generate`` is deterministic and gives the committed file
    (regenerate it when the rules change on purpose; docs/solver.md)."""
    assert perft.generate() == CORPUS


def test_a_missed_move_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check fails on a difference, naming the position and the move: here the Python
    search state made to forget its last placement and to misprice its first."""
    real = State.placements

    def wrong(self, p):
        out = real(self, p)
        if len(out) >= 2:
            first = out[0]
            out = [first[:6] + (first[6] + 1,)] + out[1:-1]
        return out

    monkeypatch.setattr(State, "placements", wrong)
    entries = [e for e in POSITIONS[:200] if len(e["placements"]) >= 2 and e["outcome"] is None
               and e["position"]["rules"].get("goats") != "on"][:3]
    rep = perft.Report()
    for e in entries:
        perft.check_position(e, rep, ("state",))
    ids = {d.split(":")[0] for d in rep.differences}
    assert ids == {e["id"] for e in entries}
    assert any("state misses the placement" in d for d in rep.differences)
    assert any("state has the placement" in d and "which model/ does not" in d
               for d in rep.differences)


def test_a_changed_rule_in_model_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """model/ against the record: a changed cost (R6) in model/ is a difference too."""
    from model.game import Game

    real = Game._ascent_cost
    monkeypatch.setattr(Game, "_ascent_cost", lambda self, *a, **k: real(self, *a, **k) + 1)
    rep = perft.Report()
    for e in POSITIONS[:20]:
        perft.check_position(e, rep, ())
    assert any("model/ (now)" in d for d in rep.differences)


# ---- random positions (hypothesis) ------------------------------------------------------------

@st.composite
def random_rules(draw) -> RuleSet:
    """A ladder geometry or a random one over INT_RANGES, every option drawn, Goats a third
    of the time (every Goats option drawn)."""
    if draw(st.booleans()):
        opts = perft._options(draw(st.sampled_from(perft.LADDER)))
    else:
        opts = [f"{k}={draw(st.integers(lo, hi))}" for k, (lo, hi) in INT_RANGES.items()]
    opts += [f"{k}={draw(st.sampled_from(vs))}" for k, vs in CHOICES.items()]
    if draw(st.integers(0, 2)) == 0:
        opts += [f"{k}={draw(st.sampled_from(vs))}" for k, vs in GOAT_CHOICES.items() if k != "goats"]
        opts.append("goats=on")
    return RuleSet.from_options(opts)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=random_rules(), players=st.integers(1, 5), seed=st.integers(0, 2**32),
       turns=st.integers(0, 60))
def test_random_positions_agree(rules: RuleSet, players: int, seed: int, turns: int) -> None:
    """A position ``turns`` moves of random legal play into a random deal: every implementation
    that represents it generates what :mod:`model` does; the others say they do not."""
    rng = random.Random(seed)
    from model.deal import Deal
    from model.game import Game

    g = Game(Deal.from_seed(seed, players, rules))
    while g.turn < turns and g.outcome() is None:
        g.push(perft.random_move(g, rng))
    entry = perft.record(g, "random", f"{rules.describe()}, {players} players, deal {seed}")
    impls = tuple(n for n in perft.IMPLEMENTATIONS if AVAILABLE[n])
    rep = perft.Report()
    perft.check_position(entry, rep, impls)
    assert not rep.differences, "\n".join(rep.differences[:40])
    for impl in impls:
        assert rep.unsupported[impl] == (["random"] if rules.goats_on else [])
        assert rep.compared[impl] == (0 if rules.goats_on else 1)
