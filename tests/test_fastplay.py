"""bots.fastplay: the compiled playout engine plays exactly as the model and GreedyPolicy.

From random positions of every preset and every move-ruling option, the compiled world's
ranked moves (bit-identical scores), outcome, pushes and playouts equal the Python code's; the
Sampler draws fair permutations from the observation alone; evaluate agrees with
bots.team.evaluate_moves over the same worlds, with and without the extension.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter

import pytest

from bots import fastplay
from bots.fastplay import PyWorld, Sampler, evaluate, make_world, shuffled, supported, world_seed
from bots.greedy import GreedyPolicy
from bots.team import evaluate_moves, playout
from model.cards import parse_cards
from model.deal import Deal
from model.game import Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.observation import observe, unseen_cards, world_from_order
from model.rules import RuleSet

RULESETS = {
    "standard": RuleSet.standard(),
    "tiny": RuleSet.tiny(),
    "mini": RuleSet.mini(),
    "look-through": RuleSet.from_options(["bridge_neighbour=look-through"]),
    "replace-left": RuleSet.from_options(["bridge_replace_cost=left"]),
    "campfire-free": RuleSet.from_options(["campfire_move_cost=free"]),
    "tiny-all-options": RuleSet.from_options(["preset=tiny", "bridge_neighbour=look-through",
                                              "bridge_replace_cost=left", "campfire_move_cost=free"]),
    # every size at the engine's largest (rows, hand, colours, values, copies, Campfires,
    # Bridges, Summits) with every move-ruling option and discards_seen=own
    "largest": RuleSet.from_options(["rows=8", "hand_size=8", "colours=5", "values=12", "copies=4",
                                     "campfires=5", "bridges=10", "summits=5",
                                     "bridge_neighbour=look-through", "bridge_replace_cost=left",
                                     "campfire_move_cost=free", "discards_seen=own"]),
}
POLICY = GreedyPolicy()

needs_c = pytest.mark.skipif(not fastplay.AVAILABLE, reason="bots._playout is not built")


@pytest.fixture(params=[True, False], ids=["compiled", "python"])
def compiled(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The test runs on the compiled engine (skipped where it is not built), then on the
    pure-Python one (``AVAILABLE`` forced off)."""
    if request.param and not fastplay.AVAILABLE:
        pytest.skip("bots._playout is not built")
    monkeypatch.setattr(fastplay, "AVAILABLE", request.param)
    return request.param


def random_position(rng: random.Random, rules: RuleSet) -> Game:
    """A position of a game from a fresh deal, each move random (a third) or greedy, played to
    its end and taken back to a random turn: mostly a position in play, a tenth the end, and
    in a won game often the turn of the winning Summit."""
    g = Game(Deal.from_seed(rng.randrange(10**9), players=rng.randint(1, 5), rules=rules))
    while g.outcome() is None:
        g._apply(rng.choice(g.legal_moves()) if rng.random() < 0.33 else POLICY.move(g, g.out))
    length = g.turn
    if rng.random() < 0.1:
        return g
    back = 1 if g.outcome() == "win" and rng.random() < 0.5 else rng.randint(1, max(1, length))
    for _ in range(min(back, length)):
        g.pop()
    return g


@functools.cache
def positions(name: str) -> tuple[Game, ...]:
    """The 60 positions of ``RULESETS[name]`` that the tests below compare (seeded by the
    name), made once per process (functools.cache): playing the games out is most of the tests' time, and
    :func:`test_positions_cover_the_rare_rules` checks the very positions that
    :func:`test_compiled_world_plays_as_the_model_and_greedy` compares. Read only."""
    rng = random.Random(f"fastplay-{name}")
    return tuple(random_position(rng, RULESETS[name]) for _ in range(60))


def python_playout_moves(g: Game) -> tuple[list, tuple[bool, int]]:
    h = g.copy()
    moves = []
    while h.outcome() is None:
        m = POLICY.move(h, h.out)
        moves.append(m)
        h._apply(m)
    return moves, (h.outcome() == "win", len(h.out))


def check_world(w, g: Game, exact: bool) -> None:
    expected = POLICY.ranked(g, g.out)
    got = w.ranked()
    assert [m for _, m in got] == [m for _, m in expected]
    for (a, _), (b, _) in zip(got, expected):
        assert (a == b) if exact else abs(a - b) <= 1e-9
    assert w.ranked(limit=1) == expected[:1]
    assert w.outcome() == g.outcome()
    assert (w.to_move, w.turn, w.players) == (g.to_move, g.turn, g.players)
    assert w.to_game().to_position() == g.to_position()
    if g.outcome() is None:
        moves, result = python_playout_moves(g)
        assert w.playout_moves() == moves
        assert w.copy().playout() == result


@needs_c
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_compiled_world_plays_as_the_model_and_greedy(name: str) -> None:
    rules = RULESETS[name]
    assert supported(rules)
    kinds = Counter()
    for g in positions(name):
        w = make_world(g)
        assert isinstance(w, fastplay.FastWorld)
        check_world(w, g, exact=True)
        kinds.update(m.kind for _, m in w.ranked())
    assert kinds["place"] and kinds["discard"]  # the positions exercise more than one kind


def test_python_world_plays_as_the_model_and_greedy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fastplay, "AVAILABLE", False)
    rng = random.Random("fastplay-python")
    for name in ("tiny", "mini", "standard"):
        for _ in range(6):
            g = random_position(rng, RULESETS[name])
            w = make_world(g)
            assert isinstance(w, PyWorld)
            check_world(w, g, exact=True)


def test_playout_equals_team_playout(compiled: bool) -> None:
    rng = random.Random("fastplay-team")
    for _ in range(20 if compiled else 5):
        g = random_position(rng, rng.choice(list(RULESETS.values())))
        if g.outcome() is not None:
            continue
        first = rng.choice(g.legal_moves())
        w = make_world(g)
        w.push(first)
        assert w.playout() == playout(g, first, POLICY)


@needs_c
def test_push_of_every_legal_move_equals_the_model() -> None:
    rng = random.Random("fastplay-push")
    kinds = Counter()
    for name in sorted(RULESETS):
        for _ in range(12):
            g = random_position(rng, RULESETS[name])
            if g.outcome() is not None:
                continue
            w = make_world(g)
            for m in g.legal_moves():
                kinds[m.kind] += 1
                after = w.copy()
                after.push(m)
                g._apply(m)
                assert after.to_game().to_position() == g.to_position()
                assert after.to_game().key() == g.key()
                assert (after.to_move, after.turn, after.outcome()) == (g.to_move, g.turn, g.outcome())
                g.pop()
            assert w.to_game().to_position() == g.to_position()  # copies are independent
    assert kinds["campfire"] and kinds["place"] and kinds["discard"]


def observed_positions(rng: random.Random, count: int) -> list[Game]:
    out = []
    while len(out) < count:
        g = random_position(rng, rng.choice(list(RULESETS.values())))
        if g.outcome() is None:
            out.append(g)
    return out


def test_sampler_puts_the_unseen_cards_into_the_hidden_places(compiled: bool) -> None:
    rng = random.Random("fastplay-sampler")
    for g in observed_positions(rng, 15):
        obs = observe(g)
        sampler = Sampler(obs)
        unseen = unseen_cards(obs)
        assert sampler.unseen == unseen
        order = list(unseen)
        rng.shuffle(order)
        assert sampler.from_order(order).to_game().to_position() == world_from_order(obs, order).to_position()
        for seed in (0, 1, 2**64 - 1, -5):
            drawn = sampler.order(seed)
            assert sorted(drawn, key=lambda c: c.sort_key()) == unseen
            expected = world_from_order(obs, drawn)
            world = sampler.draw(seed)
            assert world.to_game().to_position() == expected.to_position()
            assert (world.to_move, world.turn) == (obs.seat, obs.turn)


def test_shuffle_is_uniform() -> None:
    cards = list(range(10))
    n = 20000
    counts = Counter()
    for seed in range(n):
        for pos, c in enumerate(shuffled(cards, seed)):
            counts[c, pos] += 1
    assert len(counts) == 100
    assert all(abs(k - n / 10) < 0.15 * n / 10 for k in counts.values())  # ±15 % (~7 sigma)


@needs_c
def test_compiled_draws_are_uniform() -> None:
    """One player, tiny rules: the hidden places are the deck, top first, so the compiled
    draw's deck is the whole shuffled order."""
    g = Game(Deal.from_seed(11, players=1, rules=RuleSet.tiny()))
    obs = observe(g)
    sampler = Sampler(obs)
    n_places = len(sampler.unseen)
    counts = Counter()
    n = 4000
    for seed in range(n):
        deck = sampler.draw(world_seed(7, seed)).to_game().decks[0]
        assert len(deck) == n_places
        counts.update((c, pos) for pos, c in enumerate(deck))
    copies = Counter(sampler.unseen)
    for (c, _pos), k in counts.items():
        expected = n * copies[c] / n_places
        assert abs(k - expected) < 0.35 * expected
    assert len(counts) == len(copies) * n_places


def test_no_peek_sampler_and_evaluate_read_only_the_observation(compiled: bool) -> None:
    rng = random.Random("fastplay-nopeek")
    for g in observed_positions(rng, 4 if compiled else 2):
        obs = observe(g)
        order = unseen_cards(obs)
        rng.shuffle(order)
        other = world_from_order(obs, order)  # every hidden card dealt again
        other.move_stack = list(g.move_stack)
        assert observe(other) == obs
        if len(set(order)) > 1:
            assert other.key() != g.key() or order == unseen_cards(obs)
        s1, s2 = Sampler(obs), Sampler(observe(other))
        for seed in range(3):
            assert s1.draw(seed).to_game().key() == s2.draw(seed).to_game().key()
        moves = obs.legal_moves()[:3]
        worlds = 3 if compiled else 1
        assert evaluate(obs, moves, worlds, 5) == evaluate(observe(other), moves, worlds, 5)


@pytest.mark.parametrize("name", ["tiny", "standard"])
def test_evaluate_equals_team_evaluate_moves_on_the_same_worlds(name: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(f"fastplay-evaluate-{name}")
    g = random_position(rng, RULESETS[name])
    while g.outcome() is not None:
        g = random_position(rng, RULESETS[name])
    obs = observe(g)
    moves = obs.legal_moves()[:3]
    n = 4
    sampler = Sampler(obs)
    worlds = [world_from_order(obs, sampler.order(world_seed(99, i))) for i in range(n)]
    expected = [(v.wins, v.plays, v.cards_out) for v in evaluate_moves(obs, moves, worlds)]
    assert evaluate(obs, moves, n, 99) == expected
    monkeypatch.setattr(fastplay, "AVAILABLE", False)
    assert evaluate(obs, moves, n, 99) == expected


def test_supported() -> None:
    assert all(supported(r) for r in RULESETS.values())
    assert not supported(RuleSet.from_options(["goats=on"]))
    assert supported(RuleSet.from_options(["discards_seen=own", "dealing=blocks"]))
    largest = RuleSet.from_options(["rows=8", "hand_size=8", "colours=5", "values=12", "copies=4",
                                    "campfires=5", "bridges=10", "summits=5"])
    assert supported(largest) and len(largest.composition()) <= fastplay.MAX_CARDS
    # a RuleSet built directly is not range-checked: a deck beyond the engine's array is refused
    huge = dataclasses.replace(largest, copies=9)
    assert len(huge.composition()) > fastplay.MAX_CARDS and not supported(huge)


@needs_c
def test_unsupported_rules_fall_back_to_python() -> None:
    rules = RuleSet.from_options(["preset=tiny", "goats=on"])
    g = Game(Deal.from_seed(1, players=2, rules=rules))
    assert isinstance(make_world(g), PyWorld)
    assert dataclasses.replace(rules, goats="off") == RuleSet.tiny()


def test_positions_cover_the_rare_rules() -> None:
    """The positions of the comparison above reach the policy's rare branches: the Summit
    played at once, the fallback when only Bridges were filtered, the last Summits kept, a
    Campfire, an Ascent card onto a Bridge, and positions already over."""
    seen = Counter()
    for name in sorted(RULESETS):
        for g in positions(name):
            ranked = POLICY.ranked(g, g.out)
            keep = POLICY.keep_values(g, g.hands[g.to_move], g.out)
            seen["summit"] += bool(ranked) and ranked[0][0] == 1e9
            seen["fallback"] += any(s == -1.0 for s, _ in ranked)
            seen["last summit"] += any(v >= 5 for v in keep.values())
            seen["campfire"] += any(m.kind == "campfire" for _, m in ranked)
            seen["onto bridge"] += any(m.card is not None and m.card.is_ascent
                                       and g.card_at(m.row, m.slot) is not None for _, m in ranked)
            seen["over"] += g.outcome() is not None
    assert min(seen[k] for k in ("summit", "fallback", "last summit", "campfire", "onto bridge", "over")) > 0


def test_fallback_plays_the_first_cheapest_bridge(compiled: bool) -> None:
    """A lone Bridge in hand with two Bridges up: every placement is filtered, so the first
    placement of least cost is played (row 1), not a later one of equal cost (row 2)."""
    g = Game.from_parts(RuleSet.standard(), [parse_cards("1r B 2g B 3r"), parse_cards("4b")],
                        [parse_cards("B")], [[]])
    assert len(list(g.generate_placements())) == 2
    expected = POLICY.ranked(g, g.out)
    assert [(s, m.row, m.slot) for s, m in expected] == [(-1.0, 1, 6)]
    check_world(make_world(g), g, exact=True)


@needs_c
def test_compiled_push_refuses_moves_off_its_arrays() -> None:
    """push does not check legality, but a move naming a card not in hand or a slot off the
    mountain is a ValueError, never a write out of the engine's arrays."""
    g = Game(Deal.from_seed(5, players=2))
    w = make_world(g)
    hand = g.hands[0]
    missing = next(c for c in RuleSet.standard().composition() if c not in hand)
    for m in (Move(PLACE, 1, missing, 1, 1), Move(PLACE, 1, hand[0], 0, 1), Move(PLACE, 1, hand[0], 1, 2),
              Move(PLACE, 1, hand[0], 300, 1), Move(DISCARD, 1, discard=(missing, hand[0])),
              Move(CAMPFIRE, 1, hand[0], 1, 1, 2, 1)):
        with pytest.raises(ValueError):
            w.push(m)
        with pytest.raises(ValueError):
            evaluate(observe(g), [m], 1, 0)
    assert w.to_game().to_position() == g.to_position()


@needs_c
@pytest.mark.parametrize("to_move,turn", [(2, 0), (-1, 0), (100000, 0), (0, -1)])
def test_compiled_world_refuses_a_seat_off_its_arrays(to_move: int, turn: int) -> None:
    """The player to move indexes the engine's hands: a seat outside 0..players-1 is a
    ValueError, never a read out of its arrays."""
    g = Game(Deal.from_seed(1, players=2, rules=RuleSet.tiny()))
    ids = fastplay._ids
    assert fastplay._playout is not None
    with pytest.raises(ValueError):
        fastplay._playout.World(fastplay._params(g.rules, 2), [ids(r) for r in g.mountain],
                                [ids(h) for h in g.hands], [ids(d) for d in g.decks], [],
                                to_move, turn)


def test_filled_slots_after_a_playout_equals_the_model(compiled: bool) -> None:
    for seed in range(1, 9):
        g = Game(Deal.from_seed(seed, 1 + seed % 5))
        w, reference = fastplay.make_world(g), PyWorld(g.copy())
        w.playout()
        reference.playout()
        assert w.filled_slots() == reference.game.filled_slots() > 0


def test_an_engine_built_from_other_sources_is_not_used() -> None:
    """A compiled playout engine whose recorded digest is not that of its sources
    (bots/_playout.c and solver/rules_core.h; a checkout that moved on without a rebuild) is
    not used: a one-line warning, the Python playouts run, and status() says why."""
    import subprocess
    import sys
    from pathlib import Path

    code = """
import sys, types, warnings
fake = types.ModuleType("bots._playout")
fake.SOURCE_HASH = "stale"
sys.modules["bots._playout"] = fake
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from bots import fastplay
print("warned", *[str(w.message) for w in caught])
print(fastplay.AVAILABLE, fastplay.status())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=True).stdout
    assert ("warned ascent: warning: the bots play out in Python playouts (bots/_playout.c or "
            "solver/rules_core.h changed") in out
    assert "False Python playouts (bots/_playout.c or solver/rules_core.h changed" in out


@needs_c
def test_the_built_engine_matches_its_sources() -> None:
    assert fastplay.status() == "compiled playouts (bots/_playout.c)"
    assert fastplay.source_digest(fastplay.SOURCES) == fastplay._playout.SOURCE_HASH


def _all_cards(g: Game) -> Counter:
    """Every card of a position: the mountain, the hands, the decks and the cards out."""
    c: Counter = Counter()
    for row in g.mountain:
        c.update(row)
    for h in g.hands:
        c.update(h)
    for d in g.decks:
        c.update(d)
    c.update(g.out)
    return c


def test_departing_playout(compiled: bool) -> None:
    """The playout with departures (``rate``, ``seats``, ``top``): at rate 0, or with top 1
    (the blueprint's first choice is the only one to draw), it is the greedy playout; else it
    repeats with its seed, ends in a position with every card of the deal and the outcome it
    reports, and departs from greedy's game in some positions. Bad rates and seats are
    refused."""
    rng = random.Random("fastplay-departures")
    differ = played = 0
    for _ in range(24 if compiled else 6):
        g = random_position(rng, rng.choice([RULESETS["tiny"], RULESETS["mini"]]))
        if g.outcome() is not None:
            continue
        played += 1
        w = make_world(g)
        seats = range(g.players)
        greedy = w.copy()
        expected = greedy.playout()
        assert w.copy().playout(0.0, seats, 3, 5) == expected
        assert w.copy().playout(1.0, seats, 1, 5) == expected
        a, b = w.copy(), w.copy()
        result = a.playout(0.5, seats, 3, 11)
        assert b.playout(0.5, seats, 3, 11) == result
        end = a.to_game()
        assert end.outcome() == ("win" if result[0] else "loss")
        assert len(end.out) == result[1]
        assert _all_cards(end) == _all_cards(g)
        differ += end.to_position() != greedy.to_game().to_position()
    assert played >= 3 and differ >= 1
    w = make_world(random_position(rng, RULESETS["tiny"]))
    for kw in ({"rate": -0.1, "seats": [0]}, {"rate": 1.5, "seats": [0]},
               {"rate": 0.5, "seats": [0], "top": 0}):
        with pytest.raises(ValueError):
            w.copy().playout(**kw)
    if compiled:
        with pytest.raises(ValueError):
            w.copy().playout(0.5, [7])


def test_departing_playout_takes_any_top_and_checks_its_input_at_every_rate(compiled: bool) -> None:
    """``top`` larger than the ranking (even past a C int) draws from the whole ranking, as
    ``ranked(limit)`` does; a bad ``top`` or seat is refused at rate 0 too, by both worlds."""
    rng = random.Random("fastplay-departures-top")
    g = next(p for p in (random_position(rng, RULESETS["tiny"]) for _ in range(50))
             if p.outcome() is None)
    w = make_world(g)
    seats = range(g.players)
    assert w.copy().playout(0.5, seats, 2**40, 3) == w.copy().playout(0.5, seats, 10**6, 3)
    assert len(w.ranked(2**40)) == len(w.ranked())
    for kw in ({"rate": 0.0, "top": 0}, {"rate": 0.0, "seats": [7]}, {"rate": 0.5, "seats": [-1]},
               {"rate": 0.5, "seats": [7]}, {"rate": float("nan"), "seats": [0]}):
        with pytest.raises(ValueError):
            w.copy().playout(**kw)
