"""Bots: silent bots cannot read hidden cards; every bot plays legal, replayable games; the
open-hand ``cheat`` wins exactly the deals the naive reference proves winnable."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bots import make_bot
from bots.base import play_deal
from bots.determinized import DeterminizedBot
from bots.greedy import GreedyBot
from bots.sampling import SamplingBot
from bots.team import TeamBot
from bots.uct import UctBot
from model.deal import Deal
from model.errors import IllegalMoveError
from model.game import WIN, Game
from model.moves import Move
from model.observation import Observation, observe
from model.records import replay
from model.rules import RuleSet
from tests.reference import reference_solve

TINY = RuleSet.tiny()


def _positions(players: int, seeds=range(1, 7), rules: RuleSet = RuleSet.standard()):
    """Mid-game positions: deal ``seed`` after some random legal moves."""
    for seed in seeds:
        g = Game(Deal.from_seed(seed, players, rules))
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 12)):
            if g.outcome() is not None:
                break
            g.push(rng.choice(g.legal_moves()))
        if g.outcome() is None:
            yield g


def _reshuffled_hidden(g: Game, rng: random.Random) -> Game:
    """The same position with every card hidden from the player to move dealt again: the
    other hands and every deck (the own deck too) are shuffled among themselves."""
    p = g.to_move
    hidden = [c for q in range(g.players) if q != p for c in g.hands[q]]
    hidden += [c for d in g.decks for c in d]
    rng.shuffle(hidden)
    k = 0
    hands = []
    for q in range(g.players):
        if q == p:
            hands.append(list(g.hands[q]))
        else:
            hands.append(hidden[k:k + len(g.hands[q])])
            k += len(g.hands[q])
    decks = []
    for d in g.decks:
        decks.append(hidden[k:k + len(d)])
        k += len(d)
    return Game.from_parts(g.rules, g.mountain, hands, decks, p, g.out, g.turn)


SILENT = [
    ("greedy", lambda: GreedyBot()),
    ("sampling", lambda: SamplingBot(worlds=2, candidates=3, horizon=4, seed=5)),
    ("determinized", lambda: DeterminizedBot(worlds=2, candidates=3, seed=5)),
    ("team", lambda: TeamBot(worlds=2, candidates=3, seed=5)),
    ("team-beliefs", lambda: TeamBot(worlds=2, candidates=3, beliefs=True, seed=5)),
    ("uct", lambda: UctBot(iterations=8, seed=5)),
]


@pytest.mark.parametrize("name,factory", SILENT)
def test_silent_bots_cannot_read_hidden_cards(name, factory) -> None:
    """A silent bot's move is a function of the observation only: dealing every hidden card
    again (other hands, every deck order) never changes it, and the bot is handed nothing
    else (play_deal gives it observe(game) and never the deal)."""
    rng = random.Random(0)
    checked = 0
    for players in (1, 3):
        for g in _positions(players, seeds=range(1, 5)):
            other = _reshuffled_hidden(g, rng)
            if other.key() == g.key():
                continue
            a, b = observe(g), observe(other)
            assert dataclasses.replace(a, history=()) == dataclasses.replace(b, history=())
            assert factory().choose(dataclasses.replace(a, history=())) == \
                factory().choose(dataclasses.replace(b, history=()))
            checked += 1
    assert checked >= 6


class SpyBot:
    """A bot that tries to reach the game state through its observation."""

    name = "spy"
    sees_hidden_cards = False

    def __init__(self) -> None:
        self.found: list[str] = []

    def start(self, deal) -> None:
        raise AssertionError("a silent bot must never be given the deal")

    def choose(self, observation: Observation) -> Move:
        for attr in ("game", "_game", "deal", "decks", "hands", "state"):
            try:
                getattr(observation, attr)
                self.found.append(attr)
            except AttributeError:
                pass
        view = observation.view()  # the only Game a bot can build: no hidden card in it
        others = [h for q, h in enumerate(view.hands) if q != observation.seat]
        if any(others) or any(view.decks):
            self.found.append("view")
        return GreedyBot().choose(observation)


def test_a_bot_that_tries_to_reach_the_game_state_fails() -> None:
    spy = SpyBot()
    play_deal(Deal.from_seed(4, 3, TINY), spy)
    assert spy.found == []


@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("bot", ["greedy", "sampling", "determinized", "best", "team", "uct"])
def test_silent_bots_play_legal_replayable_games(players: int, bot: str) -> None:
    params = ({"worlds": 2, "candidates": 2, "horizon": 3} if bot == "sampling"
              else {"worlds": 2, "candidates": 3} if bot in ("determinized", "team")
              else {"iterations": 8} if bot in ("uct", "best") else {})
    for seed in (1, 2, 3):
        deal = Deal.from_seed(seed, players, TINY)
        result = play_deal(deal, make_bot(bot, **params))
        rep = replay(deal, result.plan.moves)
        assert rep.error is None
        assert rep.outcome == result.outcome
        assert result.slots == rep.game.filled_slots() and result.out == len(rep.game.out)
        assert result.turns == len(result.plan.moves)


def test_cheat_wins_exactly_the_winnable_deals() -> None:
    """``cheat`` plays the open-hand solver's plan: it wins iff the naive reference says the
    deal is a win (small deals: 2 rows, 8 cards, 1–2 players, hands of 2 or 3)."""
    seen = set()
    for players, hand in ((1, 2), (1, 3), (2, 2)):
        rules = RuleSet.from_options({"preset": "tiny", "rows": 2, "values": 3, "copies": 1,
                                      "campfires": 0, "hand_size": hand})
        for seed in range(1, 7):
            deal = Deal.from_seed(seed, players, rules)
            verdict, _ = reference_solve(deal)
            bot = make_bot("cheat", time_limit=None)
            result = play_deal(deal, bot)
            assert bot.verdict == verdict
            assert (result.outcome == WIN) == (verdict == "win")
            assert replay(deal, result.plan.moves).error is None
            seen.add(verdict)
    assert seen == {"win", "loss"}


def test_illegal_bot_moves_are_refused() -> None:
    class Cheater:
        name = "bad"
        sees_hidden_cards = False

        def choose(self, observation: Observation) -> Move:
            return Move("discard", observation.player, discard=())

    with pytest.raises(IllegalMoveError):
        play_deal(Deal.from_seed(1, 1, TINY), Cheater())


def test_make_bot_rejects_unknown_names_and_parameters() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")
    with pytest.raises(ValueError, match="worlds"):
        make_bot("sampling", worlds=0)
    with pytest.raises(ValueError, match="candidates"):
        make_bot("determinized", candidates=0)
    with pytest.raises(ValueError, match="candidates"):
        make_bot("best", candidates=0)


def test_the_determinized_bot_is_repeatable_and_its_seed_matters() -> None:
    """One seed, one game; the worlds it draws depend on the seed (some seed changes a
    move somewhere in these games)."""
    deals = [Deal.from_seed(s, p, TINY) for s in (1, 2, 3) for p in (1, 2)]
    a = [play_deal(d, make_bot("determinized", worlds=3, seed=1)).plan.moves for d in deals]
    b = [play_deal(d, make_bot("determinized", worlds=3, seed=1)).plan.moves for d in deals]
    assert a == b
    others = [[play_deal(d, make_bot("determinized", worlds=3, seed=s)).plan.moves for d in deals]
              for s in (2, 3, 4)]
    assert any(o != a for o in others)


def test_best_names_the_strongest_bot_measured() -> None:
    from bots import BEST, BOT_NAMES

    assert BEST in BOT_NAMES and "best" in BOT_NAMES
    assert make_bot("best").name == make_bot(BEST).name
