"""What a silent player sees (ruling V1), and the worlds consistent with it.

The real game is played with hidden cards and no talking (EN: "No communications allowed!").
An :class:`Observation` is everything the player to move may know, and nothing else:

* their own hand (but not their own deck's order: decks are face down);
* the mountain;
* the cards seen to leave the game: every discard under ``discards_seen=all`` (the default of
  ruling V1), or only the player's own discards and the replaced Bridges under ``own``; under
  ``own`` the number of the others' discarded cards is known, not which cards they were;
* every player's hand size and deck size, the turn number and whose turn it is;
* the moves seen so far (others' discarded cards blanked under ``own``).

It holds plain immutable data (tuples of :class:`~model.cards.Card`, ints, the
:class:`~model.rules.RuleSet`) and no reference to the :class:`~model.game.Game` it was taken
from, so a bot given an observation cannot reach the hidden cards (``tests/test_bots.py``).

:func:`sample_world` deals the hidden cards (the others' hands, every deck's order, the
others' unseen discards) at random among the worlds consistent with the observation, each with
its probability under the fair shuffle of R13: the unseen cards, as a multiset, are put in a
uniformly random order into the hidden places. The moves seen add no hard constraint (every
hidden card could have been held by anyone who has not shown it), so this is also the
posterior given the moves, for partners whose play is not read for hints.

>>> from model.deal import Deal
>>> from model.game import Game
>>> g = Game(Deal.from_seed(1, players=2))
>>> obs = observe(g)
>>> obs.seat, obs.hand_sizes, obs.deck_sizes
(0, (5, 5), (38, 37))
>>> len(unseen_cards(obs))
80
>>> import random
>>> world = sample_world(obs, random.Random(7))
>>> world.hands[0] == g.hands[0] and world.mountain == g.mountain
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from model.cards import Card, sort_cards
from model.deal import count_cards
from model.errors import InvalidDealError
from model.game import Game
from model.moves import Move
from model.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Observation:
    """What the player to move knows (ruling V1). Immutable; built by :func:`observe`.

    * ``rules``: the :class:`~model.rules.RuleSet`; ``players``: 1–5;
    * ``seat``: 0-based index of the player to move (whose observation this is);
    * ``turn``: moves made so far;
    * ``mountain``: ``rules.peak_row`` rows, row 1 first, each the tuple of its cards from
      slot 1 (as :attr:`model.game.Game.mountain`);
    * ``hand``: the seat's hand, canonical order;
    * ``hand_sizes``/``deck_sizes``: cards in each player's hand and deck, player 1 first;
    * ``out``: the cards this player has seen leave the game (canonical order);
    * ``out_unseen``: how many cards left the game unseen (0 under ``discards_seen=all``);
    * ``history``: the moves made, as this player saw them (under ``own``, the others'
      discarded cards are blanked: ``discard == ()``);
    * ``goats``: with ``goats=on``, the (row, slot) of every goat on the mountain (G1–G7;
      goats stand in view of everybody), sorted; empty with ``goats=off``.
    """

    rules: RuleSet
    players: int
    seat: int
    turn: int
    mountain: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    out: tuple[Card, ...]
    out_unseen: int
    history: tuple[Move, ...]
    goats: tuple[tuple[int, int], ...] = ()

    @property
    def player(self) -> int:
        """1-based number of the player to move (as in :class:`~model.moves.Move`)."""
        return self.seat + 1

    def view(self) -> Game:
        """A :class:`Game` holding only what this player knows: the mountain, the own hand
        and the cards seen out; the other hands and all decks are empty. Its legal moves for
        the player to move are exactly the real game's (legality depends only on the mountain
        and the mover's hand, R3–R11), so a bot may use it to list its moves. It is not the
        real game: it ends differently (no draws) and must not be played on."""
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        hands[self.seat] = list(self.hand)
        return Game.from_parts(self.rules, self.mountain, hands,
                               [[] for _ in range(self.players)], self.seat, None, self.turn,
                               self.goats_or_none())

    def goats_or_none(self) -> list[tuple[int, int]] | None:
        """The goats for :meth:`Game.from_parts`: their places with ``goats=on``, else
        ``None``."""
        return [(r, s) for r, s in self.goats] if self.rules.goats_on else None

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move, discard choices expanded (R11)."""
        return self.view().legal_moves()


def observe(game: Game, seat: int | None = None) -> Observation:
    """The observation of ``seat`` (0-based; default the player to move) in ``game`` (V1).

    Under ``discards_seen=own`` the cards out are split into seen (the seat's own discards,
    the replaced Bridges, and the cards already out when ``game`` was set up from a position)
    and unseen (the others' discards). Raises ``ValueError`` for a seat out of range.
    """
    p = game.to_move if seat is None else seat
    if not 0 <= p < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {p}")
    rules = game.rules
    history = tuple(game.move_stack)
    out_seen: list[Card]
    unseen = 0
    if rules.discards_seen == "all":
        out_seen = list(game.out)
    else:
        # game.out lists, in order: the cards out before the first recorded move, then per
        # move its discards (and a replaced Bridge). Replay the order to attribute each card.
        hidden = 0
        blanked = []
        for m in history:
            if m.player != p + 1:
                hidden += len(m.discard)
                blanked.append(Move(m.kind, m.player, m.card, m.row, m.slot, m.to_row,
                                    m.to_slot, ()) if m.discard else m)
            else:
                blanked.append(m)
        history = tuple(blanked)
        others = count_cards([c for m in game.move_stack if m.player != p + 1 for c in m.discard])
        out_seen = []
        for c in game.out:
            if others.get(c, 0) > 0:
                others[c] -= 1
                unseen += 1
            else:
                out_seen.append(c)
        assert unseen == hidden
    return Observation(
        rules=rules,
        players=game.players,
        seat=p,
        turn=game.turn,
        mountain=tuple(tuple(r) for r in game.mountain),
        hand=tuple(game.hands[p]),
        hand_sizes=tuple(len(h) for h in game.hands),
        deck_sizes=tuple(len(d) for d in game.decks),
        out=tuple(sort_cards(out_seen)),
        out_unseen=unseen,
        history=history,
        goats=tuple(game.goats),
    )


def unseen_cards(obs: Observation) -> list[Card]:
    """The cards the observer cannot locate (canonical order): the deck's composition (R1)
    minus the mountain, the own hand and the cards seen out. Their number equals the others'
    hand sizes plus every deck size plus ``out_unseen``; :class:`InvalidDealError` if not (an
    observation that no game could give)."""
    counts = count_cards(obs.rules.composition())
    for c in [c for r in obs.mountain for c in r] + list(obs.hand) + list(obs.out):
        if counts.get(c, 0) <= 0:
            raise InvalidDealError(f"the observation shows more copies of {c} than the deck has")
        counts[c] -= 1
    cards = sort_cards([c for c, n in counts.items() for _ in range(n)])
    need = hidden_places(obs)
    if len(cards) != need:
        raise InvalidDealError(f"{len(cards)} unseen cards for {need} hidden places")
    return cards


def hidden_places(obs: Observation) -> int:
    """Number of hidden places: the others' hand cards, every deck card, unseen discards."""
    others = sum(n for i, n in enumerate(obs.hand_sizes) if i != obs.seat)
    return others + sum(obs.deck_sizes) + obs.out_unseen


def world_from_order(obs: Observation, order: Sequence[Card]) -> Game:
    """The world (a full :class:`Game` position) that puts the unseen cards ``order`` into the
    hidden places: first the other players' hands (player order), then every deck top card
    first (player order), then the unseen discards. ``order`` must be a permutation of
    :func:`unseen_cards`. The position has no move history."""
    cards = list(order)
    k = 0
    hands: list[list[Card]] = []
    for i, n in enumerate(obs.hand_sizes):
        if i == obs.seat:
            hands.append(list(obs.hand))
        else:
            hands.append(cards[k:k + n])
            k += n
    decks = []
    for n in obs.deck_sizes:
        decks.append(cards[k:k + n])
        k += n
    out = list(obs.out) + cards[k:]
    return Game.from_parts(obs.rules, obs.mountain, hands, decks, obs.seat, out, obs.turn,
                           obs.goats_or_none())


def sample_world(obs: Observation, rng: random.Random | None = None) -> Game:
    """One world consistent with ``obs``, drawn with its probability under the fair shuffle
    (R13): the unseen cards in a uniformly random order (``rng.shuffle``) put into the hidden
    places by :func:`world_from_order`. ``rng`` defaults to a fresh :class:`random.Random`.

    The world is a :class:`Game` position with the observer to move, the same mountain, hand,
    hand and deck sizes and cards out as the real game; a bot may play it out (it is a guess,
    never the real game)."""
    rng = rng or random.Random()
    cards = unseen_cards(obs)
    rng.shuffle(cards)
    return world_from_order(obs, cards)
