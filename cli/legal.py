"""``ascent legal``: every legal move of the player to move, with its cost; or, with
``--explain CARD``, why each candidate slot takes or refuses a card (ruling ids)."""

from __future__ import annotations

from typing import Any

import click
from rich.text import Text

from cli.common import (
    card_text,
    cards_text,
    console,
    load_source,
    outcome_text,
    parse_card_option,
    resolve_game,
    source_options,
)
from model.cards import Card
from model.game import Game, Placement
from model.records import dumps


def payable_cards(game: Game, card: Card) -> list[Card]:
    """The cards of the mover's hand that can pay for playing ``card`` (the hand less one
    copy of ``card``), canonical order."""
    rest = list(game.hands[game.to_move])
    if card in rest:
        rest.remove(card)
    return rest


def where_text(game: Game, pl: Placement) -> str:
    """Where a placement puts its card, in the game's terms: ``→ row 1 slot 4``,
    ``onto the Bridge at row 2 slot 3``, ``→ peak (row 9 slot 1)``, or for a Campfire
    ``on 7r at row 2 slot 3, 7r moves → row 4 slot 1``."""
    if pl.card.is_campfire:
        moved = game.card_at(pl.row, pl.slot)
        return (f"on {moved} at row {pl.row} slot {pl.slot}, "
                f"{moved} moves → row {pl.to_row} slot {pl.to_slot}")
    if pl.onto_bridge:
        return f"onto the Bridge at row {pl.row} slot {pl.slot}"
    if pl.row == game.rules.peak_row:
        return f"→ peak (row {pl.row} slot {pl.slot})"
    return f"→ row {pl.row} slot {pl.slot}"


def cost_text(game: Game, pl: Placement) -> str:
    """``costs 0`` or ``costs 2: discard any 2 of 3r 5g 9b (3 ways)`` (R6, R8, R9)."""
    if pl.cost == 0:
        return "costs 0"
    pay = payable_cards(game, pl.card)
    ways = len(game.discard_choices(pay, pl.cost))
    return (f"costs {pl.cost}: discard any {pl.cost} of {' '.join(c.text for c in pay)} "
            f"({ways} way{'s' if ways != 1 else ''})")


def legal_data(game: Game) -> dict[str, Any]:
    """JSON-ready summary of the legal moves: ``to_move`` and ``turn`` (1-based),
    ``outcome`` (``win``/``loss``/``None``), ``placements`` (one object per
    :class:`~model.game.Placement`, with ``pay_from``: the cards that can pay) and
    ``discard_two`` (whether the discard-2 move of R11 is available)."""
    over = game.outcome()
    placements = [] if over else list(game.generate_placements())
    return {
        "to_move": None if over == "win" else game.to_move + 1,  # won: no player to move
        "turn": game.turn + 1,
        "outcome": over,
        "hand": [c.text for c in game.hands[game.to_move]],
        "placements": [
            {"card": pl.card.text, "row": pl.row, "slot": pl.slot, "to_row": pl.to_row,
             "to_slot": pl.to_slot, "cost": pl.cost, "onto_bridge": pl.onto_bridge,
             "pay_from": [c.text for c in payable_cards(game, pl.card)] if pl.cost else []}
            for pl in placements
        ],
        "discard_two": over is None and len(game.hands[game.to_move]) >= 2,
        **({"goats": [[r, c] for r, c in game.goats],
            "goat_moves": [m.to_json() for m in game.generate_goat_moves()] if not over else []}
           if game.rules.goats_on else {}),
    }


def explain_rows(game: Game, card: Card) -> list[dict[str, Any]]:
    """:meth:`model.game.Game.explain` as JSON-ready rows: ``row``, ``slot``, ``to_row``,
    ``to_slot``, ``ruling`` (``None`` when legal) and ``reason`` (or ``legal, costs N``)."""
    return [
        {"row": r, "slot": s, "to_row": r2, "to_slot": s2, "ruling": ruling, "reason": text}
        for r, s, r2, s2, ruling, text in game.explain(card)
    ]


def _target_text(game: Game, card: Card, row: dict[str, Any]) -> str:
    r, s = row["row"], row["slot"]
    here = f"row {r} slot {s}"
    if r == game.rules.peak_row:
        return here + " (peak)"
    if card.is_campfire:
        under = game.card_at(r, s)
        if row.get("any"):
            return f"{here} ({under})"
        if row["to_row"]:
            return f"{here} ({under}) → row {row['to_row']} slot {row['to_slot']}"
        return f"{here} ({under}), no higher row open"
    occupant = game.card_at(r, s)
    if occupant is not None and occupant.is_bridge:
        return here + " (Bridge)"
    return here


def _merge_campfire_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per mountain card when every destination of its moved card is refused for
    the same reason (e.g. the card is not of the Campfire's colour, R9)."""
    merged: list[dict[str, Any]] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and (rows[j]["row"], rows[j]["slot"]) == (rows[i]["row"], rows[i]["slot"]):
            j += 1
        group = rows[i:j]
        same = {(r["ruling"], r["reason"]) for r in group}
        if len(group) > 1 and len(same) == 1 and group[0]["ruling"] is not None:
            merged.append({**group[0], "to_row": 0, "to_slot": 0, "any": True})
        else:
            merged.extend(group)
        i = j
    return merged


def _goat_turn_text(game: Game) -> str:
    return ("a goat move is the whole turn" if game.rules.goat_turn == "whole"
            else "goat moves are free: the same player moves again")


def _explain_goats(game: Game, as_json: bool) -> None:
    """``--explain goat``: each goat group, each slot above it within reach, and why the
    goats may or may not move there (G2, G4, G6)."""
    rows = [{"row": r, "slot": s, "to_row": r2, "to_slot": s2, "ruling": ruling, "reason": text}
            for r, s, r2, s2, ruling, text in game.explain_goats()]
    if as_json:
        click.echo(dumps({"goats": [[r, s] for r, s in game.goats], "to_move": game.to_move + 1,
                          "outcome": game.outcome(), "moves": rows}))
        return
    out = console()
    if not game.rules.goats_on:
        out.print("The Goats module is off (--rules goats=on plays it, G1): no goats.")
        return
    top = game.rules.goat_top_row
    out.print(f"Why the goats may or may not move (top: row {top}; goat_move="
              f"{game.rules.goat_move}; {_goat_turn_text(game)}):")
    if not rows:
        out.print("  no goat on the mountain (G1: a goat arrives with each card with a goat "
                  "icon that is placed)")
    for row in rows:
        here = f"row {row['row']} slot {row['slot']} ({game.card_at(row['row'], row['slot'])})"
        if row["to_row"]:
            target = game.card_at(row["to_row"], row["to_slot"])
            here += f" → row {row['to_row']} slot {row['to_slot']} ({target or 'empty'})"
        line = Text(f"  {here}  ")
        if row["ruling"] is None:
            line.append(row["reason"], style="green")
        else:
            line.append(f"{row['ruling']}: ", style="bold red")
            line.append(row["reason"])
        out.print(line, highlight=False)


@click.command()
@source_options
@click.option("--explain", "explain", metavar="CARD", default=None,
              help="Instead of the moves: why each candidate slot takes or refuses CARD "
                   "(card text such as 7r, Cg, B, S), with the ruling id; 'goat' explains "
                   "the goat moves (goats=on).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def legal(source: str | None, seed: int | None, players: int | None, rule_options: tuple[str, ...],
          step: int | None, explain: str | None, as_json: bool) -> None:
    """List every legal move of the player to move in a POSITION (or a PLAN after K
    moves): each card of the hand into each slot it may take, with its cost and the cards
    that can pay it, and the discard-2 move (R11) when the hand holds two cards.

    With --explain CARD: every candidate slot (each row's next slot, each Bridge, the
    peak; for a Campfire each card on the mountain) and why it refuses CARD (ruling id and
    reason) or what it costs there. CARD need not be in the hand.

    \b
    Examples:
      ascent legal --seed 1 --players 2
      ascent solve --seed 1 --players 2 --record plan.json
      ascent legal plan.json --step 4
      ascent show plan.json --step 4 --save-position position.json
      ascent legal position.json --explain 7r
      ascent legal position.json --explain Cr --json
      ascent legal --seed 1 --rules goats=on --explain goat
    """
    src = load_source(source, seed, players, rule_options)
    game = resolve_game(src, step)
    out = console()
    result = outcome_text(game)
    player = None if game.is_won() else game.to_move + 1  # after the Summit: nobody to move

    if explain is not None and explain.strip().lower() in ("goat", "goats"):
        _explain_goats(game, as_json)
        return
    if explain is not None:
        card = parse_card_option(explain)
        game.rules.check_card(card, "given to --explain")
        rows = explain_rows(game, card)
        if as_json:
            click.echo(dumps({"card": card.text, "to_move": player, "outcome": game.outcome(),
                              "slots": rows}))
            return
        if result is not None:
            out.print(f"The game is over ({result}); the slots still answer:")
        held = "in" if card in game.hands[game.to_move] else "not in"
        head = Text("Why each slot takes or refuses ")
        head.append_text(card_text(card))
        if player is None:
            head.append(" (no player to move):")
        else:
            head.append(f" (player {player} to move, {card} is {held} the hand):")
        out.print(head)
        if not rows:
            out.print(f"  no candidate slot: {card} has no Ascent card to replace (R9)"
                      if card.is_campfire else "  no candidate slot")
        rows = _merge_campfire_rows(rows) if card.is_campfire else rows
        targets = [_target_text(game, card, r) for r in rows]
        width = max((len(t) for t in targets), default=0)
        for target, row in zip(targets, rows):
            line = Text(f"  {target.ljust(width)}  ")
            if row["ruling"] is None:
                line.append(row["reason"], style="green")
            else:
                line.append(f"{row['ruling']}: ", style="bold red")
                line.append(row["reason"])
            out.print(line)
        return

    data = legal_data(game)
    if as_json:
        click.echo(dumps(data))
        return
    if result is not None:
        out.print(f"The game is over: {result}. No legal moves.")
        return
    hand = game.hands[game.to_move]
    head = Text(f"Turn {game.turn + 1}: player {player} to move, hand ")
    head.append_text(cards_text(hand, empty="(empty)"))
    out.print(head)
    placements = list(game.generate_placements())
    out.print(f"Legal placements ({len(placements)}):")
    if not placements:
        out.print("  none")
    wheres = [where_text(game, pl) for pl in placements]
    width = max((len(w) for w in wheres), default=0)
    for pl, where in zip(placements, wheres):
        line = Text("  ")
        line.append_text(card_text(pl.card))
        line.append(" " * (4 - len(pl.card.text)) + where.ljust(width) + "  " + cost_text(game, pl))
        out.print(line)
    if game.rules.goats_on:
        goat_moves = data["goat_moves"]
        out.print(f"Goat moves ({len(goat_moves)}; {_goat_turn_text(game)}):")
        if not goat_moves:
            out.print("  none" + ("" if game.goats else " (no goat on the mountain)"))
        for m in game.generate_goat_moves():
            out.print("  " + game.move_text(m).split(" ", 2)[2], highlight=False)
    if data["discard_two"]:
        ways = len(game.discard_choices(hand, 2))
        line = Text("Discard 2: any 2 of ")
        line.append_text(cards_text(hand))
        line.append(f" ({ways} way{'s' if ways != 1 else ''})")
        out.print(line)
    else:
        out.print("Discard 2: not possible (fewer than 2 cards in hand)")
