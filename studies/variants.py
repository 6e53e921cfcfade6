"""One deal (or position) under every combination of rule options, and where two rulings part.

:func:`run_variants` solves the same start under the base rule set and under every
combination of the options to vary (by default every ruling option of ``docs/rules.md``,
section 3: ``bridge_neighbour`` R6/R7, ``bridge_replace_cost`` R8, ``campfire_move_cost`` R9,
and for a seeded deal ``dealing`` R13), one :class:`VariantRow` each. A row *differs* when
its answer provably differs from the base row's: a win against a proven loss, objective
values whose proven ranges (bound to best found) do not overlap, or a start that cannot be
set up under its rules (an error). A difference that a limit leaves open (a win against an
unknown, two best-found values that are not proven) is an *unproven difference*, shown but
not explained.

For the rows that differ with the fewest options changed (:func:`partings_for`; usually
one), :func:`parting` follows the better row's line (its winning moves
from the start) under both rule sets and returns the first position where the engine's legal
moves differ (:class:`Parting`): the edge that matters. The line's own move there is marked
when it is one of the moves legal under one rule set only.

How the start is rebuilt under other rules: a seeded deal is dealt again (``dealing``
changes which cards each player gets); a deal from a file keeps its decks; a position keeps
its cards (:meth:`model.game.Game.from_parts`); a plan's moves are replayed under each rule
set (a move that becomes illegal makes that row an error, naming the move and the ruling).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from model.deal import Deal
from model.errors import AscentError, IllegalMoveError
from model.game import Game
from model.moves import Move
from model.rules import ALL_CHOICES, MOVE_RULINGS, RuleSet

#: Ruling options that keep the cards of a deal file or position (``dealing`` re-deals).
SAME_CARDS = ("bridge_neighbour", "bridge_replace_cost", "campfire_move_cost")


class VariantsError(AscentError):
    """Bad ``variants`` input (an option that cannot vary for this start); one line."""


@dataclass
class Start:
    """What is solved: a seeded deal (``seed``, ``players``), a deal from a file (``deal``),
    or a position (``position``) with optional ``moves`` played from the deal or position
    first (a plan)."""

    name: str
    seed: int | None = None
    players: int = 1
    deal: Deal | None = None
    position: Game | None = None
    moves: list[Move] = field(default_factory=list)

    def allowed(self) -> tuple[str, ...]:
        """The ruling options varied by default for this start (``dealing`` re-deals the
        cards, so it varies with a seed only); the Goats module's options and
        ``discards_seen`` vary only when named."""
        return MOVE_RULINGS if self.seed is not None else SAME_CARDS

    def may_vary(self, option: str) -> bool:
        """Whether ``option`` may vary for this start (every named option but ``dealing``
        for a deal file or a position)."""
        return option in ALL_CHOICES and (self.seed is not None or option != "dealing")

    def under(self, rules: RuleSet) -> Deal | Game:
        """The start under ``rules`` (a :class:`Deal`, or a :class:`Game` after the plan's
        moves). Raises :class:`~model.errors.IllegalMoveError` when a move of the plan is
        illegal under ``rules``."""
        if self.seed is not None:
            start: Deal | Game = Deal.from_seed(self.seed, self.players, rules)
        elif self.deal is not None:
            start = Deal(self.deal.players, self.deal.decks, rules, self.deal.seed)
        else:
            p = self.position
            assert p is not None
            start = Game.from_parts(rules, p.mountain, p.hands, p.decks, p.to_move, p.out, p.turn)
        if not self.moves:
            return start
        game = Game(start) if isinstance(start, Deal) else start
        for i, mv in enumerate(self.moves, 1):
            try:
                game.push(mv)
            except IllegalMoveError as exc:
                exc.move_number = i
                raise
        return game


@dataclass
class VariantRow:
    """One rule set's answer: ``options`` (the varied options' values), ``rules``, and the
    verdict, objective value, its proven ``bound``, whether it is proven optimal, the turns and
    cards out of the line found (both counted from the start position: moves still to make
    and cards that leave the game on the way), the line (winning moves, or the furthest
    line) from the start, seconds; ``error`` (the start cannot be built under these rules);
    ``differs`` from the base row (proven), ``unproven`` (differs, but not provably)."""

    options: dict[str, str]
    rules: RuleSet
    verdict: str = "error"
    value: int | None = None
    bound: int | None = None
    optimal: bool = False
    turns: int | None = None
    cards_out: int | None = None
    best_progress: int = 0
    line: list[Move] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    differs: bool = False
    unproven: bool = False
    base: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options, "rules": self.rules.describe(), "base": self.base,
                "verdict": self.verdict, "value": self.value, "bound": self.bound,
                "optimal": self.optimal, "turns": self.turns, "cards_out": self.cards_out,
                "best_progress": self.best_progress, "differs": self.differs,
                "unproven_difference": self.unproven,
                "seconds": round(self.seconds, 3), "error": self.error}


@dataclass
class Parting:
    """Where rule sets ``a`` and ``b`` first allow different moves along ``a``'s line:
    after ``step`` moves of the line (0: at the start), the position ``game`` (under ``a``),
    the moves legal only under ``a`` and only under ``b``, and the line's own next move
    (``None`` if the line ended first; ``line_move_only_a``: it is legal under ``a`` only)."""

    a: dict[str, str]
    b: dict[str, str]
    step: int | None
    game: Game | None = None
    only_a: list[Move] = field(default_factory=list)
    only_b: list[Move] = field(default_factory=list)
    line_move: Move | None = None
    line_move_only_a: bool = False
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        text = self.game.move_text if self.game is not None else str
        return {"a": self.a, "b": self.b, "step": self.step,
                "line_move": text(self.line_move) if self.line_move else None,
                "line_move_only_under_a": self.line_move_only_a,
                "only_a": [text(m) for m in self.only_a],
                "only_b": [text(m) for m in self.only_b],
                "position": self.game.to_position() if self.game is not None else None,
                "note": self.note}


def parse_vary_options(items: Sequence[str], start: Start, base: RuleSet) -> dict[str, list[str]]:
    """``--vary OPTION`` (every value) or ``OPTION=V1,V2``; default: every ruling option
    allowed for ``start``. Raises :class:`VariantsError` for an unknown option or value, or
    one that cannot vary for this start (``dealing`` for a deal file or position)."""
    allowed = start.allowed()
    if not items:
        return {k: list(ALL_CHOICES[k]) for k in allowed}
    out: dict[str, list[str]] = {}
    for item in items:
        k, _, vs = item.partition("=")
        k = k.strip()
        if k not in ALL_CHOICES:
            raise VariantsError(f"--vary: unknown ruling option {k!r}; valid: {', '.join(ALL_CHOICES)}")
        if not start.may_vary(k):
            raise VariantsError(f"--vary {k}: {start.name} has its own decks; {k} would re-deal "
                                "the cards (it varies with --seed only)")
        values = [v.strip() for v in vs.split(",") if v.strip()] if vs else list(ALL_CHOICES[k])
        for v in values:
            if v not in ALL_CHOICES[k]:
                raise VariantsError(f"--vary: unknown value {v!r} for rule option {k}; valid "
                                    f"values: {', '.join(ALL_CHOICES[k])}")
        if k in out:
            raise VariantsError(f"--vary: option {k} given twice")
        out[k] = list(dict.fromkeys(values))
    return out


def combinations(base: RuleSet, vary: dict[str, list[str]]) -> list[tuple[dict[str, str], RuleSet]]:
    """The base rule set first, then every combination of ``vary`` (duplicates dropped)."""
    out: list[tuple[dict[str, str], RuleSet]] = []
    base_opts = {k: getattr(base, k) for k in vary}
    out.append((base_opts, base))
    for values in itertools.product(*vary.values()):
        opts = dict(zip(vary, values))
        rules = RuleSet.from_options({**base.to_dict(), **opts})
        if all(r != rules for _, r in out):
            out.append((opts, rules))
    return out


def run_variants(start: Start, base: RuleSet, vary: dict[str, list[str]],
                 objective: str = "none", time_limit: float | None = 10.0,
                 memory_limit_mb: int = 2048) -> list[VariantRow]:
    """Solve ``start`` under every rule set of :func:`combinations`; the first row is the
    base. Rows differ when the verdict or the value differs from the base row's."""
    from model.records import replay
    from solver import solve

    rows: list[VariantRow] = []
    for opts, rules in combinations(base, vary):
        row = VariantRow(opts, rules, base=not rows)
        try:
            s = start.under(rules)
        except AscentError as exc:
            n = getattr(exc, "move_number", None)
            row.error = f"move {n} of the plan: {exc}" if n is not None else str(exc)
            rows.append(row)
            continue
        t = time.perf_counter()
        res = solve(s, objective, time_limit=time_limit, memory_limit_mb=memory_limit_mb)
        row.seconds = time.perf_counter() - t
        if res.stats.get("interrupted"):
            raise KeyboardInterrupt
        row.verdict, row.value, row.optimal = res.verdict, res.value, res.optimal
        row.bound = res.bound
        row.best_progress = res.best_progress
        row.line = list(res.continuation)
        if res.plan is not None:
            row.turns = len(res.continuation)
            record = res.plan
            if record.deal is not None:
                row.cards_out = len(replay(record.deal, record.moves).game.out)
            else:  # a record from a position
                assert record.position is not None
                g = record.position.copy()
                for mv in record.moves:
                    g.push(mv)
                row.cards_out = len(g.out)
            row.cards_out -= len(s.out) if isinstance(s, Game) else 0  # from the start position
        rows.append(row)
    base_row = rows[0]
    for r in rows[1:]:
        r.differs, r.unproven = compare(base_row, r, objective)
    return rows


def compare(a: VariantRow, b: VariantRow, objective: str) -> tuple[bool, bool]:
    """``(differs, unproven)`` of row ``b`` against row ``a``: proven different (an error on
    one side only, a win against a proven loss, or objective values whose proven ranges
    ``[bound, value]`` do not overlap), or different only as far as the limits left it
    (an unknown against a decided verdict, values not proven apart)."""
    if (a.error is None) != (b.error is None):
        return True, False
    if a.error is not None:
        return False, False
    decided = ("win", "loss")
    if a.verdict != b.verdict:
        if a.verdict in decided and b.verdict in decided:
            return True, False
        return False, True
    if objective == "none" or a.verdict != "win" or a.value == b.value:
        return False, False

    def span(r: VariantRow) -> tuple[int, int]:
        lo = r.value if r.optimal and r.value is not None else (r.bound if r.bound is not None else 0)
        return lo, r.value if r.value is not None else lo

    (alo, ahi), (blo, bhi) = span(a), span(b)
    if ahi < blo or bhi < alo:
        return True, False
    return False, True


def partings_for(rows: Sequence[VariantRow]) -> list[VariantRow]:
    """The rows to compare with the base (``rows[0]``): the differing rows that change one
    option from the base, or, if none of those differs, the differing rows with the fewest
    changed options (rows with an error are left out)."""
    base = rows[0]
    if base.error is not None:
        return []
    diff = [r for r in rows[1:] if r.differs and r.error is None]
    if not diff:
        return []

    def changes(r: VariantRow) -> int:
        return sum(1 for k, v in r.options.items() if base.options.get(k) != v)

    fewest = min(changes(r) for r in diff)
    return [r for r in diff if changes(r) == fewest]


def _better(a: VariantRow, b: VariantRow) -> bool:
    """``a``'s answer is better than ``b``'s: a win against a non-win, or a lower value."""
    if a.verdict == "win" and b.verdict != "win":
        return True
    if a.verdict == b.verdict == "win" and a.value is not None and b.value is not None:
        return a.value < b.value
    return False


def parting(start: Start, x: VariantRow, y: VariantRow) -> Parting:
    """The first position along the better row's line where the legal moves under the two
    rule sets differ (see :class:`Parting`). When neither answer is better (both lost, or
    unknown), the base row's line is followed."""
    a, b = (y, x) if _better(y, x) else (x, y)
    if "dealing" in a.options and a.options.get("dealing") != b.options.get("dealing"):
        return Parting(a.options, b.options, None,
                       note="different dealing: the players hold different cards from move 1")
    ga, gb = start.under(a.rules), start.under(b.rules)
    ga = Game(ga) if isinstance(ga, Deal) else ga
    gb = Game(gb) if isinstance(gb, Deal) else gb
    for step in range(len(a.line) + 1):
        la, lb = set(ga.legal_moves()), set(gb.legal_moves())
        move = a.line[step] if step < len(a.line) else None
        if la != lb:
            key = _order_key(ga)
            return Parting(a.options, b.options, step, ga.copy(),
                           sorted(la - lb, key=key), sorted(lb - la, key=key), move,
                           move is not None and move in la - lb)
        if move is None:
            break
        ga.push(move)
        gb.push(move)
    return Parting(a.options, b.options, None,
                   note="the legal moves are the same all along the line; the answers differ "
                        "because a limit ran out")


def _order_key(game: Game):
    def key(m: Move) -> tuple:
        return (m.kind, m.row, m.slot, game.move_text(m))
    return key
