"""``greedy``: a rules-of-thumb player that sees only its own observation.

The rules of thumb, in the order they decide a move:

1. **Summit first.** If the Summit can go on the peak (R10), play it: the game is won.
2. **Every card has a keep value** in [0, 1], what it is still worth to the team:

   * a *dead* card (one that can never be placed again: an Ascent card whose rows 1..min(v, 8)
     are full with no Bridge left there, R4; a Bridge with no row that still has a middle slot
     free, R7; a Campfire with no card of its colour left to replace, R9) is worth 0;
   * a Summit is worth little while many are left (0.2), and more when few are (0.9 when at most
     two are left in hands and decks); a second Summit in the same hand is worth 0.05;
   * a Bridge 0.3, a Campfire 0.6;
   * an Ascent card 0.35 plus up to 0.5 for how close its value is to the value it would pay
     against in the best row it can still go to (R6): **keep flexible cards** that fit the
     mountain as it stands; cards that can still reach high rows (R4) keep 0.15 more.

3. **Pay with the cheapest cards.** A placement's cost (R6, R8, R9) is paid with the cards of
   least keep value; a discard turn (R11) throws the two cards of least keep value.
4. **Score and choose.** A placement scores ``SLOT_VALUE`` = 3 (a slot filled) minus the keep
   value of the card played and of the cards paid, plus a small bonus when the rest of the hand
   fits the new neighbour (and 0.3 for replacing a Bridge). A discard turn scores minus the keep
   value of the two cards thrown. The best score is played. So a placement is nearly always
   preferred to a discard turn, and the cheapest placement (in keep value) among them.
   ``FLEX`` prices using a high card low; a small sweep (60 deals, 1–3 players: slot value
   1.0/1.4/2.2/3.0/4.5/8.0 × flex 0/0.03/0.08/0.15 × Bridges on/off) found slot value 3,
   flex 0 and Bridges on best, so those are the defaults.
5. **Bridges and Campfires with care.** A Bridge is only played into rows 1..rows-2, while at
   most two Bridges stand on the mountain, and only when no other placement costs at most 1 (it
   scores 0.4 less, since an Ascent card must later pay to replace it, R8). A Campfire scores
   like an Ascent placement of the card it moves (it fills a slot, R9).

6. **Goats** (the optional Goats module only): every legal goat move scores 0.5, below a
   cheap placement and above a discard turn, so goats climb when nothing cheap fits and a
   player never stalls with a goat move open (G2, G4).

All of it reads only the mountain, the hand of the player to move and the cards out: the
policy (:class:`GreedyPolicy`) is also used for the fast playouts of the ``sampling`` bot,
where it runs on a sampled world (a :class:`~model.game.Game`) without building observations.
"""

from __future__ import annotations

from typing import Sequence

from model.cards import Card
from model.game import Game, Placement
from model.moves import DISCARD, Move
from model.observation import Observation

SLOT_VALUE = 3.0
BRIDGE_PENALTY = 0.4
MAX_BRIDGES = 2
PLACE_BRIDGES = True
LAST_SUMMIT = 5.0
FLEX = 0.0  # price per row a card could have gone higher (0: measured best, see below)
REPLACE_BONUS = 0.3
GOAT_SCORE = 0.5  # a goat move (Goats module only): the goats must reach the top to win (G4)


class GreedyPolicy:
    """The rules of thumb above as a function of a position (see the module docstring).

    :meth:`move` reads ``game.mountain``, the hand of ``game.to_move`` and its legal
    placements (:meth:`Game.generate_placements`), and the cards ``out`` given; nothing else of
    ``game``. It never returns an illegal move (its moves come from the model's list).
    """

    def move(self, game: Game, out: Sequence[Card]) -> Move:
        """The greedy move of the player to move in ``game`` (a view or a sampled world)."""
        return self.ranked(game, out, limit=1)[0][1]

    def ranked(self, game: Game, out: Sequence[Card], limit: int | None = None) -> list[tuple[float, Move]]:
        """Candidate moves with their scores, best first: each legal placement (with its
        cheapest payment), the best discard turn and, with goats, each goat move. At least
        one entry unless the game is over (R12)."""
        rules = game.rules
        p = game.to_move
        hand = game.hands[p]
        keep = self.keep_values(game, hand, out)
        bridges_up = len(game.bridges())
        scored: list[tuple[float, Move]] = []
        placements = list(game.generate_placements())
        cheap = any(pl.cost <= 1 and not pl.card.is_bridge for pl in placements)
        seen: set[tuple] = set()
        for pl in placements:
            if pl.card.is_summit:
                return [(1e9, pl.move(p + 1))]
            key = (pl.card, pl.row, pl.slot, pl.to_row, pl.to_slot)
            if key in seen:
                continue
            seen.add(key)
            if pl.card.is_bridge and (not PLACE_BRIDGES or cheap or bridges_up >= MAX_BRIDGES
                                      or pl.row > rules.rows - 2):
                continue
            rest = list(hand)
            rest.remove(pl.card)
            pay = sorted(rest, key=lambda c: keep[c])[: pl.cost]
            score = SLOT_VALUE - keep[pl.card] - sum(keep[c] for c in pay)
            score += self._shape(game, pl, rest, pay)
            scored.append((score, pl.move(p + 1, pay)))
        if len(hand) >= 2:
            throw = sorted(hand, key=lambda c: keep[c])[:2]
            scored.append((-sum(keep[c] for c in throw), Move(DISCARD, p + 1, discard=tuple(throw))))
        if not scored and placements:  # only Bridges filtered out above: play one anyway
            pl = min(placements, key=lambda x: x.cost)
            rest = list(hand)
            rest.remove(pl.card)
            pay = sorted(rest, key=lambda c: keep[c])[: pl.cost]
            scored.append((-1.0, pl.move(p + 1, pay)))
        if rules.goats_on:  # G2: a goat move, below any cheap placement, above a discard
            scored.extend((GOAT_SCORE, m) for m in game.generate_goat_moves(p))
        # never throw the team's last Summit while another move exists (R10)
        safe = [(sc, m) for sc, m in scored if not any(keep[c] >= LAST_SUMMIT for c in m.discard)]
        scored = safe or scored
        scored.sort(key=lambda t: -t[0])
        return scored[:limit] if limit else scored

    def _shape(self, game: Game, pl: Placement, rest: list[Card], pay: list[Card]) -> float:
        """Small tie-breakers: a high card used low loses flexibility; a Bridge costs later;
        a placement whose new neighbour fits the rest of the hand gains."""
        rules = game.rules
        card = pl.card
        if card.is_bridge:
            return -BRIDGE_PENALTY
        moved: Card | None = card
        row = pl.row
        if card.is_campfire:
            moved = game.card_at(pl.row, pl.slot)
            row = pl.to_row
        if moved is None or not moved.is_ascent:
            return 0.0
        s = -FLEX * (rules.max_row(moved.value) - row)
        if pl.onto_bridge:
            s += REPLACE_BONUS
        left = list(rest)
        for c in pay:
            left.remove(c)
        if row < rules.rows and pl.slot < rules.row_length(row) and not pl.onto_bridge:
            near = min((abs(c.value - moved.value) for c in left if c.is_ascent), default=6)
            s += 0.1 * max(0.0, 1 - near / 4)
        return s

    # ---- keep values ------------------------------------------------------------------------

    def keep_values(self, game: Game, hand: Sequence[Card], out: Sequence[Card]) -> dict[Card, float]:
        """Keep value in [0, 1] of each distinct card in ``hand`` (see the module docstring)."""
        rules = game.rules
        mountain = game.mountain
        open_rows = [r for r in range(1, rules.rows + 1) if len(mountain[r - 1]) < rules.row_length(r)]
        bridge_rows = {r for r, _ in game.bridges()}
        refs: dict[int, int | None] = {}
        for r in open_rows:
            n = len(mountain[r - 1])
            refs[r] = game.left_reference(r, n + 1) if n else None
        summits_out = sum(1 for c in out if c.is_summit) + sum(
            1 for row in mountain for c in row if c.is_summit)
        summits_left = rules.summits - summits_out
        n_summits_hand = sum(1 for c in hand if c.is_summit)
        keep: dict[Card, float] = {}
        for c in set(hand):
            if c.is_summit:
                if summits_left - n_summits_hand <= 0:  # the team's last Summits: never pay
                    keep[c] = LAST_SUMMIT
                    continue
                v = 0.9 if summits_left <= 2 else 0.2
                keep[c] = v if n_summits_hand == 1 else min(v, 0.05 + v / n_summits_hand)
            elif c.is_bridge:
                live = any(1 <= len(mountain[r - 1]) <= rules.row_length(r) - 2
                           for r in range(1, rules.rows))
                keep[c] = 0.3 if live else 0.0
            elif c.is_campfire:
                live = any(x.is_ascent and x.colour == c.colour
                           for r in range(1, rules.rows) for x in mountain[r - 1]) and any(
                    r > 1 for r in open_rows)
                keep[c] = 0.6 if live else 0.0
            else:
                top = rules.max_row(c.value)
                rows = [r for r in open_rows if r <= top]
                if not rows and not any(r <= top for r in bridge_rows):
                    keep[c] = 0.0
                    continue
                best = 0.0
                for r in rows:
                    ref = refs[r]
                    fit = 1.0 if ref is None else max(0.0, 1 - abs(c.value - ref) / 4)
                    best = max(best, fit)
                keep[c] = 0.35 + 0.5 * best + (0.15 if top >= rules.rows - 1 else 0.0)
        return keep


class GreedyBot:
    """The ``greedy`` bot: :class:`GreedyPolicy` on the observation's view (silent)."""

    name = "greedy"
    sees_hidden_cards = False

    def __init__(self) -> None:
        self.policy = GreedyPolicy()

    def start(self, deal) -> None:  # noqa: D401 - silent bots are never given the deal
        """Silent: never called by :func:`bots.base.play_deal`."""

    def choose(self, observation: Observation) -> Move:
        """The greedy move for ``observation`` (legal: from the model's move list)."""
        return self.policy.move(observation.view(), observation.out)
