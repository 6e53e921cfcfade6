"""bots.playout: the one playout of the bots plays exactly as a plain loop over Game.push.

From random positions of every preset and of goats=on, with a policy per seat (greedy, and a
seeded choice among the legal moves) and horizons cut short or not, :func:`play_out` makes
the moves, in the order, of a straightforward reference loop; :func:`played_out` gives the
world back; an error inside takes the moves back. The bots' own playouts (``sampling``,
``team``, ``determinized``'s rollout, the Python engine of ``fastplay``) equal the reference.
"""

from __future__ import annotations

import random

import pytest

from bots.determinized import LOSS_VALUE, DeterminizedBot
from bots.fastplay import PyWorld
from bots.greedy import GreedyPolicy
from bots.playout import greedy, play_out, played_out
from bots.sampling import CARD_VALUE, WIN_VALUE, SamplingBot
from bots.team import playout as team_playout
from model.deal import Deal
from model.errors import IllegalMoveError
from model.game import LOSS, WIN, Game
from model.moves import DISCARD, Move
from model.rules import RuleSet

RULESETS = {
    "standard": RuleSet.standard(),
    "tiny": RuleSet.tiny(),
    "mini": RuleSet.mini(),
    "goats": RuleSet.from_options(["goats=on"]),
    "tiny-goats-free": RuleSet.from_options(["preset=tiny", "goats=on", "goat_turn=free"]),
}
POLICY = GreedyPolicy()


def random_policy(seed: int):
    """A seat policy choosing among the legal moves by a hash of the seed and the position
    (the same answer in the same position, whoever asks, however often)."""
    def move(g: Game) -> Move:
        legal = g.legal_moves()
        return legal[random.Random(f"{seed}/{g.key()!r}").randrange(len(legal))]
    return move


def greedy_reference(g: Game) -> Move:
    return POLICY.move(g, g.out)


def reference(g: Game, policies, horizon: int | None) -> list[Move]:
    """The playout written plainly: every move checked by Game.push, on a copy."""
    h = g.copy()
    moves: list[Move] = []
    while h.outcome() is None and (horizon is None or len(moves) < horizon):
        m = policies[h.to_move](h)
        h.push(m)
        moves.append(m)
    return moves


def position(rng: random.Random, rules: RuleSet) -> Game:
    """A position in play (or at the end) of a fresh deal: a random number of moves, each
    random (a third) or greedy."""
    g = Game(Deal.from_seed(rng.randrange(10**9), players=rng.randint(1, 4), rules=rules))
    for _ in range(rng.randrange(40)):
        if g.outcome() is not None:
            break
        g.push(rng.choice(g.legal_moves()) if rng.random() < 0.33 else POLICY.move(g, g.out))
    return g


def history(g: Game) -> tuple:
    return g.key(), list(g.move_stack), list(g.out)


@pytest.mark.parametrize("name", RULESETS)
def test_play_out_makes_the_reference_moves(name: str) -> None:
    rng = random.Random(f"play_out/{name}")
    for i in range(12):
        g = position(rng, RULESETS[name])
        mixed = [greedy() if (i + s) % 2 else random_policy(i * 10 + s) for s in range(g.players)]
        ref_mixed = [greedy_reference if (i + s) % 2 else random_policy(i * 10 + s)
                     for s in range(g.players)]
        for horizon in (None, 0, 1, 7):
            for policy, ref in ((greedy(), [greedy_reference] * g.players), (mixed, ref_mixed)):
                expected = reference(g, ref, horizon)
                before = history(g)
                h = g.copy()
                made = play_out(h, policy, horizon)
                assert made == len(expected)
                assert h.move_stack == expected
                end = g.copy()
                for m in expected:
                    end.push(m)
                assert h.key() == end.key() and h.outcome() == end.outcome()
                assert history(g) == before  # play_out worked on the copy only
                with played_out(g, policy, horizon, checked=True) as outcome:
                    assert g.move_stack[len(before[1]):] == expected
                    assert outcome == end.outcome()
                assert history(g) == before


def test_played_out_gives_the_world_back_on_an_exception() -> None:
    g = Game(Deal.from_seed(5, 2))
    before = history(g)
    with pytest.raises(KeyError), played_out(g, greedy()):
        assert g.turn > 0
        raise KeyError("inside the block")
    assert history(g) == before


def test_play_out_takes_its_moves_back_when_a_policy_fails() -> None:
    g = Game(Deal.from_seed(6, 3))
    before = history(g)
    asked = []

    def failing(world: Game) -> Move:
        asked.append(world.turn)
        if len(asked) == 5:
            raise RuntimeError("policy failed")
        return POLICY.move(world, world.out)

    with pytest.raises(RuntimeError):
        play_out(g, failing)
    assert asked == [0, 1, 2, 3, 4]  # four moves were made before the failure
    assert history(g) == before


def test_checked_refuses_an_illegal_move() -> None:
    g = Game(Deal.from_seed(7, 1))
    before = history(g)
    wrong = [c for c in g.rules.composition() if c not in g.hands[0]][:2]

    def illegal(world: Game) -> Move:  # a discard of cards not in the hand
        return Move(DISCARD, world.to_move + 1, discard=tuple(wrong))

    with pytest.raises(IllegalMoveError):
        play_out(g, illegal, horizon=3, checked=True)
    assert history(g) == before


@pytest.mark.parametrize("name", ["standard", "goats"])
def test_the_bots_playouts_are_the_reference(name: str) -> None:
    """team.playout, SamplingBot.playout (horizon cut or not), DeterminizedBot's rollout and
    PyWorld's playout equal the values computed from the reference moves."""
    rng = random.Random(f"bots/{name}")
    checked = 0
    for _ in range(10):
        g = position(rng, RULESETS[name])
        if g.outcome() is not None:
            continue
        checked += 1
        greedy_all = [greedy_reference] * g.players
        before = history(g)
        first = POLICY.move(g, g.out)
        after = g.copy()
        after.push(first)
        rest = reference(after, greedy_all, None)
        end = after.copy()
        for m in rest:
            end.push(m)
        won = end.outcome() == WIN
        assert team_playout(g, first, POLICY) == (won, len(end.out))
        assert history(g) == before
        assert PyWorld(after.copy()).playout_moves() == rest
        w = PyWorld(after.copy())
        assert w.playout() == (won, len(end.out)) and w.game.key() == end.key()
        rolled = DeterminizedBot()._rollout(after)
        assert rolled == (1.0 if won else LOSS_VALUE * end.filled_slots() / end.rules.mountain_slots)
        for horizon in (None, 1, 6):
            cut = end if horizon is None else after.copy()
            if horizon is not None:
                for m in rest[:horizon - 1]:
                    cut.push(m)
            outcome = cut.outcome()
            if outcome == WIN:
                value = WIN_VALUE
            else:
                value = float(cut.filled_slots())
                if outcome != LOSS:
                    value += CARD_VALUE * (sum(map(len, cut.hands)) + sum(map(len, cut.decks)))
            assert SamplingBot(horizon=horizon).playout(g, first) == value
            assert history(g) == before
    assert checked >= 5
