"""``team``: a rollout over the blueprint, for a silent team (search on a known partner policy).

The blueprint is the team-mate policy in use, :class:`bots.greedy.GreedyPolicy` by default: it
is the best model of the partners (people or bots) that we have. For each decision of the seat
to move:

1. the candidates are the ``candidates`` best moves of the blueprint's own ranking
   (:meth:`GreedyPolicy.ranked`); a lone candidate or the Summit is played at once;
2. ``worlds`` worlds are drawn from what the seat may see only (the fair-shuffle posterior
   of the unseen cards, ruling V1, R13: :class:`bots.fastplay.Sampler`, played out by the
   compiled engine where it is built; with ``beliefs`` on, :func:`sample_world`, filtered by
   the partners' last moves, below); every candidate is played in the same worlds (common
   random numbers);
3. in each world the candidate is played and the game is played out to its end with every
   seat, this one included, playing the blueprint *from that seat's own observation in that
   world*: the greedy policy reads only the mountain, the mover's own hand and the cards out
   (never another hand or a deck), so no seat of the playout is clairvoyant. This is the
   rollout algorithm of Bertsekas: it does no worse than the blueprint given enough worlds,
   and it avoids the strategy fusion of the open-hand beam of ``determinized``;
4. the candidate with the most wins is played; ties go to the blueprint's order (its own
   choice first, which already prices the cards spent).

**Beliefs** (``beliefs=True``; off by default: in the first benchmark, with ``team`` in every
seat, the filter cost wins at 3 players, see docs/results.md). A partner's move is the only
signal of a silent game. For the partners' moves since this seat last moved (the most recent
first), the world is taken back to the position before the move (the mountain replayed from
the moves seen, the cards played and discarded returned to the partner's hand, the cards it
drew after it put back: every choice of them is tried) and the blueprint is asked, from that
partner's observation there, what it would have played. A world where it would not have made
the move seen is rejected and drawn again, up to ``tries`` draws per world; when none of them
agrees, the last draw is kept (counted in :attr:`TeamBot.fallbacks`), so the bot never stalls
on a partner who is not the blueprint. :func:`consistent` is that check.

The bot sees only the observation; ``seed`` makes its choices repeatable: the random stream of
a decision depends on the seed, the turn, the seat and the cards in view only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from bots import fastplay
from bots.greedy import GreedyPolicy
from bots.playout import greedy, played_out
from model.cards import Card, sort_cards
from model.game import WIN, Game
from model.moves import CAMPFIRE, Move
from model.observation import Observation, sample_world


@dataclass(frozen=True)
class MoveValue:
    """One candidate's result over the worlds: ``move``, ``wins`` (playouts won), ``plays``
    (playouts), ``cards_out`` (summed cards out of the game at the playouts' ends)."""

    move: Move
    wins: int
    plays: int
    cards_out: int

    @property
    def share(self) -> float:
        """Wins per playout, in 0..1 (0 with no playout)."""
        return self.wins / self.plays if self.plays else 0.0


def playout(world: Game, first: Move, policy: GreedyPolicy) -> tuple[bool, int]:
    """Play ``first`` (a legal move of the player to move in ``world``) and then ``policy`` in
    every seat to the game's end, each seat from its own hand, the mountain and the cards out.
    Returns (won, cards out at the end). ``world`` is given back unchanged
    (:func:`bots.playout.played_out`)."""
    world.push(first)
    try:
        with played_out(world, greedy(policy)) as outcome:
            return outcome == WIN, len(world.out)
    finally:
        world.pop()


def evaluate_moves(observation: Observation, moves: Sequence[Move], worlds: Sequence[Game],
                   policy: GreedyPolicy | None = None) -> list[MoveValue]:
    """Each of ``moves`` (legal moves of ``observation.player``) played in each of ``worlds``
    (positions consistent with ``observation``, e.g. from :func:`sample_worlds`) and followed
    by the blueprint ``policy`` (default greedy) in every seat to the end: one
    :class:`MoveValue` per move, in the order given, over the same worlds (common random
    numbers, so two moves' shares can be compared world by world). Reads the worlds only (a
    world is a guess, never the real game) and leaves them unchanged."""
    policy = policy or GreedyPolicy()
    out = []
    for m in moves:
        wins = spent = 0
        for w in worlds:
            won, n_out = playout(w, m, policy)
            wins += won
            spent += n_out
        out.append(MoveValue(m, wins, len(worlds), spent))
    return out


def mountains_before(observation: Observation, count: int) -> list[list[list[Card]]] | None:
    """The mountain before each of the last ``count`` moves of ``observation.history``.

    Returns a list of at most ``count`` mountains, the most recent move's first; each mountain
    is a list of ``rules.peak_row`` rows, row 1 first, each row its cards slot by slot. They
    are replayed from the empty mountain of the game's start with only public information
    (played cards, R8 Bridges, R9 Campfires; a discard or a goat's move leaves the mountain as
    it is), so no hidden card is read. ``None`` when the history does not reach back to the
    start (a game set up from a position). Used by :func:`consistent` here and by the partner
    model (:mod:`bots.partner_model`) to see the table each past move was chosen at."""
    if len(observation.history) != observation.turn:
        return None
    rows: list[list[Card]] = [[] for _ in range(observation.rules.peak_row)]
    snaps = []
    for m in observation.history:
        snaps.append([list(r) for r in rows])
        if m.card is None:  # a discard turn or a goat's move: the cards stay where they are
            continue
        row = rows[m.row - 1]
        if m.kind == CAMPFIRE:  # R9: the card moved goes to the next slot of the higher row
            moved = row[m.slot - 1]
            row[m.slot - 1] = m.card
            rows[m.to_row - 1].append(moved)
        elif m.slot <= len(row):  # onto a Bridge (R8)
            row[m.slot - 1] = m.card
        else:
            row.append(m.card)
    return snaps[::-1][:count]


def consistent(observation: Observation, world: Game, policy: GreedyPolicy | None = None) -> bool:
    """Whether the blueprint ``policy``, in ``world`` (a world drawn for ``observation``),
    would have made the partners' moves seen since the observer last moved (module
    docstring). Each partner's hand before its move is its hand in ``world`` minus the cards
    it drew after the move plus the cards the move spent; which of its cards were drawn is
    unknown, so every choice of them is tried and the move agrees if one choice makes the
    blueprint play it (the true world is never rejected when the partner plays the
    blueprint). The mountain before each move is replayed from the moves seen. A discard
    hidden by ``discards_seen=own``, a draw from an emptied deck, goats, or a history that does
    not reach back to the game's start end the check: what is left counts as consistent."""
    policy = policy or GreedyPolicy()
    rules = world.rules
    n = observation.players
    recent: list[Move] = []
    for m in reversed(observation.history):
        if m.player == observation.player or len(recent) >= n - 1:
            break
        recent.append(m)
    befores = mountains_before(observation, len(recent))
    if befores is None or rules.goats_on:
        return True
    out = list(world.out)
    for m, mountain in zip(recent, befores):  # most recent first
        q = m.player - 1
        if m.discard and rules.discards_seen != "all":
            return True
        spent = list(m.discard) + ([m.card] if m.card is not None else [])
        if not world.decks[q]:
            return True  # the draw after it may have been cut short: unknown hand size
        hand = list(world.hands[q])
        for c in m.discard:
            out.remove(c)
        agrees = False
        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[q] = hand[len(spent):] + spent
        pos = Game.from_parts(rules, mountain, hands, [[] for _ in range(n)], q, None, 0)
        for drawn in combinations(range(len(hand)), len(spent)):
            # the same position with another choice of the drawn cards (checked once above)
            pos.hands[q] = sort_cards([c for i, c in enumerate(hand) if i not in drawn] + spent)
            if policy.move(pos, out) == m:
                agrees = True
                break
        if not agrees:
            return False
    return True


def sample_worlds(observation: Observation, count: int, rng: random.Random, beliefs: bool = True,
                  tries: int = 20, policy: GreedyPolicy | None = None) -> tuple[list[Game], int]:
    """``count`` worlds for ``observation`` (:func:`sample_world`), each with ``beliefs``
    checked by :func:`consistent` and drawn again on a rejection, up to ``tries`` draws (the
    last draw is kept then). Returns (worlds, how many were kept without agreeing)."""
    policy = policy or GreedyPolicy()
    worlds = []
    fallbacks = 0
    for _ in range(count):
        w = sample_world(observation, rng)
        if beliefs:
            tried = 1
            while not consistent(observation, w, policy):
                if tried >= tries:
                    fallbacks += 1
                    break
                w = sample_world(observation, rng)
                tried += 1
        worlds.append(w)
    return worlds, fallbacks


class TeamBot:
    """The ``team`` bot (silent). Parameters: ``worlds`` (N ≥ 1 worlds per decision),
    ``candidates`` (K ≥ 1, the blueprint's best K compared), ``beliefs`` (filter worlds by
    the partners' moves), ``tries`` (draws per world at most, ≥ 1), ``seed`` (int). Raises
    ``ValueError`` for a parameter out of range."""

    name = "team"
    sees_hidden_cards = False

    def __init__(self, worlds: int = 12, candidates: int = 3, beliefs: bool = False,
                 tries: int = 20, seed: int = 0) -> None:
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"worlds must be a whole number ≥ 1, not {worlds!r}")
        if not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a whole number ≥ 1, not {candidates!r}")
        if not isinstance(tries, int) or tries < 1:
            raise ValueError(f"tries must be a whole number ≥ 1, not {tries!r}")
        self.worlds = worlds
        self.candidates = candidates
        self.beliefs = bool(beliefs)
        self.tries = tries
        self.seed = seed
        self.policy = GreedyPolicy()
        self.playouts = 0  # over the bot's life
        self.fallbacks = 0  # worlds kept although no draw agreed with the partners' moves

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def choose(self, observation: Observation) -> Move:
        """The candidate with the most playouts won over the sampled worlds (module docstring)."""
        ranked = self.policy.ranked(observation.view(), observation.out, limit=self.candidates)
        if len(ranked) == 1 or ranked[0][0] >= 1e9:
            return ranked[0][1]
        moves = [m for _, m in ranked]
        view = (observation.turn, observation.seat, observation.hand, observation.mountain)
        rng = random.Random(f"team/{self.seed}/{view!r}")
        if self.beliefs:
            worlds, fb = sample_worlds(observation, self.worlds, rng, True, self.tries,
                                       self.policy)
            self.fallbacks += fb
            values = evaluate_moves(observation, moves, worlds, self.policy)
        else:  # fresh fair-shuffle worlds, drawn and played out by bots.fastplay
            counts = fastplay.evaluate(observation, moves, self.worlds, rng.getrandbits(62))
            values = [MoveValue(m, w, n, o) for m, (w, n, o) in zip(moves, counts)]
        self.playouts += sum(v.plays for v in values)
        best = max(range(len(values)), key=lambda i: (values[i].wins, -i))
        return values[best].move
