"""What a silent player sees (ruling V1) and the worlds consistent with it."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

import pytest

from model.cards import Card, parse_cards
from model.deal import Deal
from model.game import Game
from model.moves import DISCARD
from model.observation import (
    hidden_places,
    observe,
    sample_world,
    unseen_cards,
    world_from_order,
)
from model.rules import RuleSet

TINY = RuleSet.tiny()


def _played(seed: int, players: int, turns: int, rules: RuleSet = TINY) -> Game:
    """A game of deal ``seed`` after ``turns`` moves (first legal move each time)."""
    g = Game(Deal.from_seed(seed, players, rules))
    rng = random.Random(seed)
    for _ in range(turns):
        if g.outcome() is not None:
            break
        g.push(rng.choice(g.legal_moves()))
    return g


def _leaves(value, path="obs"):
    """Every leaf object reachable through an observation's fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _leaves(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def test_observation_holds_plain_data_only() -> None:
    """No field leads to the Game, the Deal or any list the game could change."""
    g = _played(3, 3, 5, RuleSet.standard())
    obs = observe(g)
    for path, leaf in _leaves(obs):
        assert isinstance(leaf, (int, str, Card, type(None), bool)), (path, type(leaf))
    assert not isinstance(obs, Game)
    with pytest.raises((AttributeError, TypeError)):
        obs.game  # noqa: B018 - there is no such field
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hand = ()  # type: ignore[misc]
    assert not hasattr(obs, "__dict__")  # slots: nothing can be hung on it


def test_observation_fields_match_the_game() -> None:
    g = _played(5, 2, 6, RuleSet.standard())
    obs = observe(g)
    assert obs.seat == g.to_move and obs.player == g.to_move + 1 and obs.turn == g.turn
    assert list(obs.hand) == g.hands[g.to_move]
    assert [list(r) for r in obs.mountain] == g.mountain
    assert obs.hand_sizes == tuple(len(h) for h in g.hands)
    assert obs.deck_sizes == tuple(len(d) for d in g.decks)
    assert Counter(obs.out) == Counter(g.out) and obs.out_unseen == 0
    assert list(obs.history) == g.move_stack
    assert obs.legal_moves() == g.legal_moves()  # legality needs only the mountain and the hand


def _swap_hidden(g: Game) -> Game:
    """The same position with two different hidden cards exchanged (another player's hand
    card and a card of the mover's own deck), or None if none differ."""
    p = g.to_move
    for q in range(g.players):
        if q == p:
            continue
        for i, a in enumerate(g.hands[q]):
            for j, b in enumerate(g.decks[p]):
                if a != b:
                    hands = [list(h) for h in g.hands]
                    decks = [list(d) for d in g.decks]
                    hands[q][i], decks[p][j] = b, a
                    return Game.from_parts(g.rules, g.mountain, hands, decks, p, g.out, g.turn)
    return None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hidden_cards_do_not_change_the_observation(seed: int) -> None:
    g = _played(seed, 3, 4, RuleSet.standard())
    other = _swap_hidden(g)
    assert other is not None and other.key() != g.key()
    a, b = observe(g), observe(other)
    assert dataclasses.replace(a, history=()) == dataclasses.replace(b, history=())


def test_discards_seen_own_hides_the_others_discards() -> None:
    """V1 ``discards_seen=own``: a player sees their own discards and the replaced Bridges, and
    only the number of the others' discarded cards."""
    rules = RuleSet.from_options(["discards_seen=own"])
    g = Game(Deal.from_seed(8, 2, rules))
    # P1 discards two, P2 discards two
    for _ in range(2):
        m = next(m for m in g.legal_moves() if m.kind == DISCARD)
        g.push(m)
    p1_discards, p2_discards = g.move_stack[0].discard, g.move_stack[1].discard
    obs = observe(g)  # P1 to move
    assert obs.seat == 0
    assert Counter(obs.out) == Counter(p1_discards)
    assert obs.out_unseen == 2
    assert obs.history[1].discard == () and obs.history[0].discard == p1_discards
    obs2 = observe(g, seat=1)
    assert Counter(obs2.out) == Counter(p2_discards) and obs2.out_unseen == 2
    # the default sees all
    full = observe(Game.from_parts(RuleSet.standard(), g.mountain, g.hands, g.decks,
                                   g.to_move, g.out, g.turn))
    assert full.out_unseen == 0 and len(full.out) == 4
    assert len(unseen_cards(obs)) == hidden_places(obs) == len(unseen_cards(full)) + 2


def test_rule_option_discards_seen() -> None:
    assert RuleSet().discards_seen == "all"
    assert RuleSet.from_options(["discards_seen=own"]).discards_seen == "own"
    with pytest.raises(ValueError, match="valid values: all, own"):
        RuleSet.from_options(["discards_seen=none"])


@pytest.mark.parametrize("players", [1, 2, 4])
def test_sampled_worlds_agree_with_the_observation(players: int) -> None:
    g = _played(11, players, 7, RuleSet.standard())
    obs = observe(g)
    rng = random.Random(0)
    for _ in range(5):
        w = sample_world(obs, rng)  # Game.from_parts checks it is a possible position
        assert observe(w) == dataclasses.replace(obs, history=())
        assert Counter(c for h in w.hands for c in h) + Counter(c for d in w.decks for c in d) \
            + Counter(w.out) == Counter(c for h in g.hands for c in h) \
            + Counter(c for d in g.decks for c in d) + Counter(g.out)


def test_sampling_is_the_fair_shuffle_posterior() -> None:
    """Every world comes with its probability under the fair shuffle: the exact distribution,
    counted over every order of the unseen cards (copies distinguished), against 4,000 draws.
    Worlds are compared by what decides the game (other hands as multisets, decks in order)."""
    rules = RuleSet.from_options({"preset": "tiny", "hand_size": 2})
    g = Game.from_parts(
        rules,
        [parse_cards("1r 2g 3r 4g"), parse_cards("2r 4g 3r"), parse_cards("3g 4r")],
        [parse_cards("S 2r"), parse_cards("1g 4r")],
        [parse_cards("1r"), parse_cards("B 3g")],
        to_move=0,
    )
    obs = observe(g)
    unseen = unseen_cards(obs)
    assert len(unseen) == 5  # 2 in P2's hand, 1 + 2 in the decks

    def key(w: Game) -> tuple:
        return tuple(tuple(sorted(h, key=Card.sort_key)) for h in w.hands), \
            tuple(tuple(d) for d in w.decks)

    exact: Counter = Counter()
    for perm in itertools.permutations(range(len(unseen))):
        exact[key(world_from_order(obs, [unseen[i] for i in perm]))] += 1
    total = math.factorial(len(unseen))
    rng = random.Random(1)
    n = 4000
    seen = Counter(key(sample_world(obs, rng)) for _ in range(n))
    assert set(seen) <= set(exact)
    assert len(set(exact)) > 5
    for world, ways in exact.items():
        p = ways / total
        sd = math.sqrt(n * p * (1 - p))
        assert abs(seen[world] - n * p) <= 5 * sd + 1, (world, seen[world], n * p)
