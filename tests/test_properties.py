"""Property tests: random legal play never breaks an invariant, and ``replay`` is exact.

Property tests: random legal play from random deals for 1–5 players (random rule
options, the ``tiny`` preset and random small geometries too) keeps every invariant of R1–R13;
``model.records.replay`` accepts every game random play produces and rejects each single-move
corruption of it (a corruption that stays legal is recognised via ``legal_moves`` and skipped).
Moves are drawn with hypothesis from :meth:`Game.legal_moves`, biased towards placements (and
cheap ones) so that the mountain fills. The last test is an OpenSpiel-style random simulation
conformance test (clone, serialise, apply/undo, terminal behaviour).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from model.cards import BRIDGE_CARD, Card
from model.deal import MASK64, Deal
from model.errors import IllegalMoveError
from model.game import LOSS, WIN, Game
from model.moves import CAMPFIRE, DISCARD, PLACE, Move
from model.records import Plan, position_from_data, replay
from model.rules import CHOICES, RuleSet
from tests.strategies import examples

RULING = re.compile(r"R(1[0-3]|[1-9])")

# ---- strategies ------------------------------------------------------------------------------


@st.composite
def rule_sets(draw) -> RuleSet:
    """Any rule options on the standard or tiny preset, or a random small geometry."""
    opts: dict = {name: draw(st.sampled_from(values)) for name, values in CHOICES.items()}
    kind = draw(st.sampled_from(["standard", "standard", "tiny", "tiny", "random"]))
    if kind == "random":
        rows = draw(st.integers(2, 5))
        opts.update(
            rows=rows, values=draw(st.integers(rows, 12)), colours=draw(st.integers(2, 3)),
            copies=draw(st.integers(1, 2)), campfires=draw(st.integers(0, 2)),
            bridges=draw(st.integers(0, 3)), summits=draw(st.integers(1, 2)),
            hand_size=draw(st.integers(2, 6)),
        )
    else:
        opts["preset"] = kind
    return RuleSet.from_options(opts)


@st.composite
def deals(draw) -> Deal:
    rules = draw(rule_sets())
    return Deal.from_seed(draw(st.integers(0, MASK64)), draw(st.integers(1, 5)), rules)


def choose(data, moves: list[Move]) -> Move:
    """A legal move drawn with hypothesis: mostly a placement, often a cheapest one."""
    places = [m for m in moves if m.kind != DISCARD]
    pool = moves
    if places and data.draw(st.integers(0, 9), label="place?") < 8:
        pool = places
        if data.draw(st.booleans(), label="cheapest?"):
            cheapest = min(len(m.discard) for m in places)
            pool = [m for m in places if len(m.discard) == cheapest]
    return pool[data.draw(st.integers(0, len(pool) - 1), label="move")]


# ---- invariants --------------------------------------------------------------------------------


def everything(game: Game) -> Counter:
    cards = Counter(game.out)
    for part in (game.mountain, game.hands, game.decks):
        for cards_ in part:
            cards.update(cards_)
    return cards


def check_invariants(game: Game) -> None:
    """R1–R13 invariants of any reachable position."""
    rules = game.rules
    comp = Counter(rules.composition())
    # R1: card count conserved (decks + hands + mountain + out = the deck), no extra copies
    assert everything(game) == comp
    for card, n in everything(game).items():
        assert n <= rules.copies_of(card)
    # R2–R10 on the mountain
    assert len(game.mountain) == rules.peak_row
    for r, row in enumerate(game.mountain, start=1):
        length = rules.row_length(r)
        assert len(row) <= length
        if r > 1 and row:
            assert len(game.mountain[r - 2]) >= len(row) + 1, f"R3 support, row {r}"
        for s, c in enumerate(row, start=1):
            if r == rules.peak_row:
                assert c.is_summit, "R10: only a Summit on the peak"
                continue
            assert not c.is_summit, "R10: a Summit only on the peak"
            if c.is_ascent:
                assert r <= rules.max_row(c.value), f"R4: {c} on row {r}"
            if c.is_bridge:
                assert 1 < s < length, f"R7: Bridge at row {r} slot {s}"
            if c.is_campfire:
                assert r < rules.rows, f"R9: {c} on row {r}"
            if s > 1:
                left = row[s - 2]
                assert not (c.has_colour and left.has_colour and c.colour == left.colour), \
                    f"R5: {left} {c} in row {r}"
    if game.is_won():
        assert game.rows_full() and not game.bridges(), "R10"
    # R11/R13: hands within the hand size, topped up while the deck lasts
    for p in range(game.players):
        assert len(game.hands[p]) <= rules.hand_size
        assert len(game.hands[p]) == rules.hand_size or not game.decks[p]
        assert game.hands[p] == sorted(game.hands[p], key=Card.sort_key)
    assert 0 <= game.to_move < game.players
    assert len(game.move_stack) == game.turn


def _reference_value(cards: list[Card], index: int, step: int, look_through: bool) -> int | None:
    i = index + step
    while 0 <= i < len(cards):
        if cards[i].is_ascent:
            return cards[i].value
        if cards[i].is_bridge and not look_through:
            return None
        i += step
    return None


def expected_cost(game: Game, move: Move) -> int:
    """The discards a placement owes, recomputed from the rulings alone (an oracle written
    independently of :class:`Game`): R6 |v - u| against the nearest non-Campfire card on the
    left (a Bridge: 0 or looked through, ``bridge_neighbour``); R8 onto a Bridge the greater of
    both sides (or the left, ``bridge_replace_cost``); R9 the moved card's R6 cost at its new
    slot (or 0, ``campfire_move_cost``); Bridges and Summits cost nothing (R7, R10)."""
    rules = game.rules
    look = rules.bridge_neighbour == "look-through"

    def diff(v: int, u: int | None) -> int:
        return abs(v - u) if u is not None else 0

    if move.kind == CAMPFIRE:
        if rules.campfire_move_cost == "free":
            return 0
        value = game.card_at(move.row, move.slot).value
        return diff(value, _reference_value(game.row(move.to_row), move.to_slot - 1, -1, look))
    if not move.card.is_ascent:
        return 0
    cards, i, v = game.row(move.row), move.slot - 1, move.card.value
    left = diff(v, _reference_value(cards, i, -1, look))
    if i < len(cards) and rules.bridge_replace_cost == "max":  # onto a Bridge (R8)
        return max(left, diff(v, _reference_value(cards, i, +1, look)))
    return left


def check_moves(game: Game, moves: list[Move]) -> None:
    """Legal moves: unique, each passes :meth:`Game.check` with its cost; none iff over."""
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    assert (not moves) == game.is_over()
    if game.is_over():
        assert game.outcome() in (WIN, LOSS)
    for m in moves:
        assert m.player == game.to_move + 1
        cost = game.check(m)  # the placement cost; a discard turn has none (R11)
        if m.kind == DISCARD:
            assert cost == 0 and len(m.discard) == 2
        else:
            assert cost == len(m.discard) == expected_cost(game, m), m
        if m.kind != DISCARD and m.card.is_bridge:
            assert 1 < m.slot < game.rules.row_length(m.row), "R7"


def brute_placements(game: Game) -> set:
    """Every legal (card, row, slot, to_row, to_slot, cost), found by asking
    :meth:`Game.why_not` about every slot of the mountain (and every higher next slot for a
    Campfire), independently of ``candidate_targets``."""
    rules = game.rules
    found = set()
    for card in set(game.hands[game.to_move]):
        for r in range(1, rules.peak_row + 1):
            for s in range(1, rules.row_length(r) + 1):
                tos = [(0, 0)]
                if card.is_campfire:
                    tos = [(r2, s2) for r2 in range(1, rules.peak_row + 1)
                           for s2 in range(1, rules.row_length(r2) + 1)]
                for r2, s2 in tos:
                    ruling, cost = game.why_not(card, r, s, r2, s2)
                    if ruling is None:
                        found.add((card, r, s, r2, s2, cost))
    return found


def check_push_pop(game: Game, move: Move) -> None:
    """push/pop restores the exact key(); the move does what its kind says (R8, R9, R11)."""
    key, pos = game.key(), game.to_position()
    filled, n_out = game.filled_slots(), len(game.out)
    onto_bridge = move.kind == PLACE and game.card_at(move.row, move.slot) == BRIDGE_CARD
    moved = game.card_at(move.row, move.slot) if move.kind == CAMPFIRE else None
    game.push(move)
    if move.kind == DISCARD:
        assert game.filled_slots() == filled and len(game.out) == n_out + 2
    elif onto_bridge:  # R8: the Bridge leaves the game
        assert game.filled_slots() == filled and game.out[-1] == BRIDGE_CARD
        assert len(game.out) == n_out + len(move.discard) + 1
    else:
        assert game.filled_slots() == filled + 1 and len(game.out) == n_out + len(move.discard)
    if move.kind != DISCARD:
        assert game.card_at(move.row, move.slot) == move.card
    if move.kind == CAMPFIRE:  # R9: the replaced card moved up
        assert game.card_at(move.to_row, move.to_slot) == moved
    assert game.pop() == move
    assert game.key() == key and game.to_position() == pos


# ---- random play -------------------------------------------------------------------------------


def play(data, deal: Deal, max_moves: int = 200, brute_every: int = 4):
    """Random legal play from ``deal`` checking every invariant; returns the game, the legal
    move sets and keys of each position before each move."""
    game = Game(deal)
    legal_sets, keys = [], []
    while True:
        check_invariants(game)
        moves = game.legal_moves()
        check_moves(game, moves)
        if game.turn % brute_every == 0:
            gen = {(p.card, p.row, p.slot, p.to_row, p.to_slot, p.cost)
                   for p in game.generate_placements()}
            assert gen == brute_placements(game)
        if not moves or game.turn >= max_moves:
            break
        legal_sets.append(set(moves))
        keys.append(game.key())
        move = choose(data, moves)
        check_push_pop(game, move)
        game.push(move)
    return game, legal_sets, keys


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), data=st.data())
def test_random_play_keeps_every_invariant(deal: Deal, data) -> None:
    """R1–R13: card count conserved, no card beyond its copies, every filled slot satisfies
    R3 (support), R4 (height), R5 (colour), R7 (no Bridge at an end), R9/R10; hands within
    the hand size; push/pop restores key(); legal moves unique, each passing check(); no
    legal moves once over; generate_placements equals a brute force over every slot."""
    note(f"rules {deal.rules.describe()}, players {deal.players}, seed {deal.seed}")
    game, _, _ = play(data, deal)
    event(f"{deal.rules.preset} rows={deal.rules.rows}: {game.outcome()}")
    event(f"filled {game.filled_slots() * 10 // deal.rules.mountain_slots * 10}%+")
    for m in game.move_stack:
        event(f"move kind {m.kind if m.kind == DISCARD else m.card.kind}")
    assert game.turn <= len(deal.rules.composition())  # every turn spends a card (R11)
    if game.is_over():
        assert game.legal_moves() == []
        for m in game.generate_legal_moves():  # pragma: no cover - must be empty
            raise AssertionError(m)


# ---- replay and corruptions ------------------------------------------------------------------


def corruptions(data, game_rules: RuleSet, move: Move) -> list[tuple[str, Move]]:
    """Single-move corruptions of ``move``: card, row, slot, player, drop/add a discard; also
    a bogus kind and fields the kind does not use (a discard naming a card, a placement
    naming a ``to_row``)."""
    deck = sorted(set(game_rules.composition()), key=Card.sort_key)
    out = []
    rep = dataclasses.replace
    if move.kind == DISCARD:
        i = data.draw(st.integers(0, len(move.discard) - 1), label="which discard")
        other = data.draw(st.sampled_from([c for c in deck if c != move.discard[i]]))
        out.append(("card", rep(move, discard=move.discard[:i] + (other,) + move.discard[i + 1:])))
        out.append(("kind", rep(move, kind=PLACE, card=move.discard[0], row=1, slot=1,
                               discard=move.discard[1:])))
        out.append(("extra field", rep(move, card=other, row=1, slot=1)))
    else:
        other = data.draw(st.sampled_from([c for c in deck if c != move.card]), label="card")
        out.append(("card", rep(move, card=other)))
        rows = game_rules.peak_row + 1
        out.append(("row", rep(move, row=data.draw(
            st.sampled_from([r for r in range(1, rows + 1) if r != move.row]), label="row"))))
        out.append(("slot", rep(move, slot=data.draw(
            st.sampled_from([s for s in range(1, rows + 2) if s != move.slot]), label="slot"))))
        if move.kind == CAMPFIRE:
            out.append(("to_row", rep(move, to_row=data.draw(
                st.sampled_from([r for r in range(1, rows + 1) if r != move.to_row])))))
            out.append(("to_slot", rep(move, to_slot=data.draw(
                st.sampled_from([s for s in range(1, rows + 2) if s != move.to_slot])))))
    if move.kind == PLACE:
        out.append(("extra field", rep(move, to_row=move.row + 1, to_slot=1)))
    out.append(("bogus kind", rep(move, kind="pass")))
    out.append(("player", rep(move, player=data.draw(
        st.sampled_from([p for p in range(1, 7) if p != move.player]), label="player"))))
    if move.discard:
        i = data.draw(st.integers(0, len(move.discard) - 1), label="drop")
        out.append(("drop", rep(move, discard=move.discard[:i] + move.discard[i + 1:])))
    out.append(("add", rep(move, discard=move.discard + (data.draw(st.sampled_from(deck)),))))
    return [(k, m) for k, m in out if m != move]


def expect_rejected_at(deal: Deal, moves: list[Move], index: int, keys: list) -> None:
    """replay stops at move ``index + 1`` (1-based) with a ruling, leaving the position
    before it."""
    r = replay(deal, moves)
    assert r.error is not None, f"corrupted move {index + 1} accepted: {moves[index]}"
    assert r.error.move_number == index + 1 and r.legal_moves == index
    assert RULING.fullmatch(r.error.ruling), r.error.ruling
    assert str(r.error).startswith(f"move {index + 1}: illegal ({r.error.ruling})")
    assert r.game.key() == keys[index]


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), data=st.data())
def test_replay_accepts_random_games_and_rejects_corruptions(deal: Deal, data) -> None:
    """``replay`` accepts every game random legal play produces (also through Plan
    JSON) and rejects each single-move corruption of it — change the card, the row, the slot,
    the player, drop/add a discard card, swap two consecutive moves of different kinds — at
    exactly that move. A corruption that is itself a legal move there is skipped."""
    game, legal_sets, keys = play(data, deal, brute_every=10**9)
    moves = list(game.move_stack)
    ok = replay(deal, moves)
    assert ok.error is None and ok.legal_moves == len(moves)
    assert ok.game.key() == game.key() and ok.outcome == game.outcome()
    again = Plan.from_json(json.loads(json.dumps(Plan(deal, moves).to_json()))).replay()
    assert again.error is None and again.game.key() == game.key()
    if not moves:
        return
    keys.append(game.key())
    stats = Counter()
    for _ in range(3):
        i = data.draw(st.integers(0, len(moves) - 1), label="index")
        for kind, bad in corruptions(data, deal.rules, moves[i]):
            if bad in legal_sets[i]:  # still a legal move: not a corruption
                stats["skipped"] += 1
                continue
            stats[kind] += 1
            expect_rejected_at(deal, moves[:i] + [bad] + moves[i + 1:], i, keys)
        # swap two consecutive moves of different kinds
        j = data.draw(st.integers(0, len(moves) - 1), label="swap at")
        if j + 1 < len(moves) and (moves[j].kind == DISCARD) != (moves[j + 1].kind == DISCARD):
            swapped = moves[:j] + [moves[j + 1], moves[j]] + moves[j + 2:]
            if moves[j + 1] not in legal_sets[j]:
                expect_rejected_at(deal, swapped[: j + 2], j, keys)
                stats["swap"] += 1
            else:
                probe = replay(deal, moves[:j]).game
                probe.push(moves[j + 1])
                if moves[j] not in probe.legal_moves():
                    r = replay(deal, swapped[: j + 2])
                    assert r.error is not None and r.error.move_number == j + 2
                    stats["swap"] += 1
                else:
                    assert replay(deal, swapped[: j + 2]).error is None
                    stats["skipped"] += 1
    note(str(stats))
    for kind in stats:
        event(f"corruption {kind}")


def test_replay_rejects_every_corruption_of_whole_tiny_games() -> None:
    """Exhaustively on short games: every move of several tiny games, every
    corruption kind; each is either a legal move (skipped) or rejected at that move."""

    class Data:  # a deterministic stand-in for hypothesis' data.draw
        def __init__(self, seed: int) -> None:
            self.rng = random.Random(seed)

        def draw(self, strategy, label=None):
            return _draw(self.rng, strategy)

    kinds = Counter()
    for seed in range(12):
        deal = Deal.from_seed(seed, 1 + seed % 3, RuleSet.tiny())
        data = Data(seed)
        game, legal_sets, keys = play(data, deal, brute_every=10**9)
        moves = list(game.move_stack)
        keys.append(game.key())
        assert replay(deal, moves).error is None
        for i, m in enumerate(moves):
            for kind, bad in corruptions(data, deal.rules, m):
                if bad not in legal_sets[i]:
                    kinds[kind] += 1
                    expect_rejected_at(deal, moves[:i] + [bad], i, keys)
    assert {"card", "row", "slot", "player", "add", "drop", "kind", "extra field",
            "bogus kind"} <= set(kinds), kinds


def _draw(rng: random.Random, strategy):
    """Draw from the few strategies :func:`choose`/:func:`corruptions` use, without
    hypothesis (for the deterministic tests)."""
    r = repr(strategy)
    if r.startswith("integers("):
        lo, hi = (int(x) for x in re.findall(r"-?\d+", r)[:2])
        return rng.randint(lo, hi)
    if r.startswith("booleans("):
        return rng.random() < 0.5
    if r.startswith("sampled_from("):
        return rng.choice(list(strategy.elements))
    raise NotImplementedError(r)  # pragma: no cover


# ---- OpenSpiel-style random simulation -------------------------------------------------------


CONFIGS = [
    RuleSet.standard(),
    RuleSet.tiny(),
    RuleSet.from_options({"bridge_neighbour": "look-through", "bridge_replace_cost": "left"}),
    RuleSet.from_options({"preset": "tiny", "campfire_move_cost": "free", "dealing": "blocks"}),
    RuleSet.from_options({"rows": 4, "values": 6, "colours": 3, "copies": 1, "campfires": 2,
                          "bridges": 3, "summits": 1, "hand_size": 4}),
]


def test_random_simulation_conformance() -> None:
    """OpenSpiel ``random_sim_test`` style: play many random games to the end and, in every
    state, check that clones and serialised copies agree with the original (key, legal moves,
    outcome), that applying a move to a clone leaves the original alone, that illegal moves
    raise :class:`IllegalMoveError`, that terminal states have no moves and refuse every
    move, that the game length is bounded (R11) and that undoing everything restores the
    start. Also checks the simulations cover every kind of move (campfire, onto a Bridge,
    Summit) so the invariants above are really exercised."""
    rng = random.Random(20240601)
    seen = Counter()
    for _cfg_index, rules in enumerate(CONFIGS):
        for game_no in range(16):
            deal = Deal.from_seed(rng.randrange(2**64), 1 + game_no % 5, rules)
            game = Game(deal)
            start = game.key()
            while True:
                moves = game.legal_moves()
                terminal = game.is_over()
                assert terminal == (not moves) == (game.outcome() is not None)
                clone = game.copy()
                assert clone.key() == game.key() and clone.legal_moves() == moves
                ser = position_from_data(json.loads(json.dumps(game.to_position())))
                assert ser.key() == game.key() and ser.legal_moves() == moves
                assert ser.outcome() == game.outcome()
                if terminal:
                    break
                places = [m for m in moves if m.kind != DISCARD]
                if places and rng.random() < 0.8:
                    cheapest = min(len(m.discard) for m in places)
                    pool = [m for m in places if len(m.discard) == cheapest]
                    move = rng.choice(pool if rng.random() < 0.7 else places)
                else:
                    move = rng.choice(moves)
                clone.push(move)
                assert game.key() == ser.key()  # the clone's move did not touch the original
                # an illegal move is refused and changes nothing
                hand = game.hands[game.to_move]
                illegal = [Move(DISCARD, game.to_move + 1, discard=tuple(hand[:3]))]
                if len(hand) >= 1:
                    illegal.append(Move(PLACE, game.to_move + 1, hand[0], game.rules.peak_row + 1, 1))
                for bad in illegal:
                    if bad not in moves:
                        with pytest.raises(IllegalMoveError):
                            game.push(bad)
                        assert game.key() == ser.key()
                if move.kind == CAMPFIRE:
                    seen["campfire"] += 1
                elif move.kind == PLACE and game.card_at(move.row, move.slot) == BRIDGE_CARD:
                    seen["onto bridge"] += 1
                elif move.kind == PLACE and move.card.is_summit:
                    seen["summit"] += 1
                elif move.kind == PLACE and move.card.is_bridge:
                    seen["bridge"] += 1
                game.push(move)
                assert game.key() == clone.key()
                check_invariants(game)
            assert game.turn <= len(rules.composition())
            seen[game.outcome()] += 1
            for m in game.legal_moves() + [Move(DISCARD, game.to_move + 1,
                                                discard=tuple(game.hands[game.to_move][:2]))]:
                with pytest.raises(IllegalMoveError, match="R1[02]"):
                    game.push(m)
            n = game.turn
            for _ in range(n):
                game.pop()
            assert game.key() == start and game.turn == 0 and game.out == []
            with pytest.raises(IndexError):
                game.pop()
    assert {"campfire", "onto bridge", "summit", "bridge", WIN, LOSS} <= set(seen), seen


def test_check_refuses_moves_with_unused_fields_or_a_bogus_kind() -> None:
    """Regression (bug fixed in model/game.py): ``check``/``push`` accepted moves that are not
    in ``legal_moves`` — a ``place`` move carrying a ``to_row``/``to_slot``, a ``discard``
    naming a card and slot, and an unknown kind (applied as a placement) — so ``replay``
    accepted such corrupted records."""
    game = Game(Deal.from_seed(1))
    moves = game.legal_moves()
    place = next(m for m in moves if m.kind == PLACE)
    disc = next(m for m in moves if m.kind == DISCARD)
    for bad in (dataclasses.replace(place, to_row=2, to_slot=1),
                dataclasses.replace(disc, card=place.card, row=1, slot=1),
                dataclasses.replace(place, kind="pass")):
        assert bad not in moves
        with pytest.raises(IllegalMoveError) as exc:
            game.push(bad)
        assert exc.value.ruling == "R11"
        r = replay(game.deal, [bad])
        assert r.error is not None and r.error.move_number == 1
    assert game.turn == 0
