"""The move-generation corpus ("perft"): positions with every legal move and its cost as
:mod:`model` generates them, and the check that the other implementations of the rules
generate the same.

The rules are written four times: :mod:`model.game` (the truth), :mod:`solver.state` (the
Python search state), ``solver/_core.c`` (the compiled search core) and ``bots/_playout.c``
(the compiled playouts of :mod:`bots.fastplay`). A move one of them misses shows up as a
false "loss" of a search or a wrong playout; this module compares them position by position.

Usage::

    python -m benchmarks.perft generate   # writes tests/data/perft.json.gz (deterministic)
    python -m benchmarks.perft check      # every position, every implementation

The corpus (:data:`CORPUS`, gzip JSON, ``"format": "ascent-perft"``) holds positions from
random legal play out of seeded deals (:func:`generate`): the ladder geometries of
:mod:`benchmarks.waste_ladder` (hand 5) and the standard game with 1–5 players under every
combination of the move rulings (:data:`model.rules.MOVE_RULINGS`), random geometries over
:data:`model.rules.INT_RANGES` (their ends included), and the Goats module (``goats=on``)
with every combination of its options. Each position records, from :mod:`model`:

* ``placements``: every legal placement with its cost (R6, R8, R9), ``[card, row, slot,
  to_row, to_slot, cost, onto_bridge]`` (rows and slots 1-based), sorted;
* ``goat_moves``: every legal goat move ``[row, slot, to_row, to_slot]`` (G2; goats on only);
* ``moves``: the number of legal moves with the ways to pay expanded (R11), and
  ``digest``: the first 16 hex digits of the sha256 of their sorted JSON texts (the expanded
  list is a function of the placements and the hand, so it is kept as a count and a digest);
* ``outcome``: ``win``, ``loss`` or ``null`` (R10, R12).

:func:`check_position` compares one position: :mod:`model` against the record, then the
placements, the expanded moves, the outcome and the position after each placement (and a
discard) of :class:`solver.state.State`, the compiled core and the compiled playout engine
against :mod:`model`. Where an implementation does not represent a position it says so: the
compact search state and the core do not model the Goats module
(:func:`solver.generic.needs_generic`), the playout engine plays only what
:func:`bots.fastplay.supported` accepts. The search engines stop at a won position (they
list no moves there) and, where the Summit can be played, list only the Summit (it wins).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import itertools
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from model.deal import Deal
from model.game import Game, Placement
from model.moves import DISCARD, Move
from model.records import position_from_data
from model.rules import CHOICES, GOAT_CHOICES, INT_RANGES, MOVE_RULINGS, RuleSet

#: The committed corpus.
CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "perft.json.gz"
FORMAT = "ascent-perft"
VERSION = 1
SEED = 42

#: The ladder geometries of :mod:`benchmarks.waste_ladder` (hand 5) and the standard game.
LADDER = ["rows=4,values=6,colours=2,copies=2,campfires=1,bridges=2,summits=2,hand_size=5",
          "rows=5,values=6,colours=3,copies=2,campfires=1,bridges=2,summits=2,hand_size=5",
          "rows=6,values=8,colours=3,copies=2,campfires=1,bridges=3,summits=3,hand_size=5",
          "rows=7,values=10,colours=3,copies=2,campfires=1,bridges=4,summits=4,hand_size=5",
          "preset=standard"]

#: The implementations compared with :mod:`model`.
IMPLEMENTATIONS = ("state", "core", "playout")


def _options(text: str) -> list[str]:
    return [x for x in text.split(",") if x]


def move_rulings_combos() -> list[dict[str, str]]:
    """Every combination of the values of :data:`~model.rules.MOVE_RULINGS` (16)."""
    return [dict(zip(MOVE_RULINGS, vs)) for vs in itertools.product(*(CHOICES[k] for k in MOVE_RULINGS))]


def goat_combos() -> list[dict[str, str]]:
    """``goats=on`` with every combination of the other Goats options (64)."""
    rest = [k for k in GOAT_CHOICES if k != "goats"]
    return [{"goats": "on", **dict(zip(rest, vs))}
            for vs in itertools.product(*(GOAT_CHOICES[k] for k in rest))]


def random_geometry(rng: random.Random) -> dict[str, int]:
    """Integer parameters drawn over :data:`~model.rules.INT_RANGES`, each at one of its ends a
    third of the time."""
    out = {}
    for k, (lo, hi) in INT_RANGES.items():
        x = rng.random()
        out[k] = lo if x < 1 / 6 else hi if x < 1 / 3 else rng.randint(lo, hi)
    return out


def rule_plan(seed: int = SEED) -> list[tuple[str, RuleSet, int, int]]:
    """The deals of the corpus: ``(group, rules, players, deal seed)``, deterministic in
    ``seed``. Groups: ``ladder`` (each geometry of :data:`LADDER` × 1–5 players × each move
    rulings combination), ``random`` (random geometries, every option drawn), ``goats``
    (ladder geometries, every Goats combination twice)."""
    rng = random.Random(f"perft-plan-{seed}")
    plan: list[tuple[str, RuleSet, int, int]] = []
    combos = move_rulings_combos()
    for geo in LADDER:
        for players in range(1, 6):
            for combo in combos:
                opts = _options(geo) + [f"{k}={v}" for k, v in combo.items()]
                opts.append(f"discards_seen={rng.choice(CHOICES['discards_seen'])}")
                plan.append(("ladder", RuleSet.from_options(opts), players, rng.randrange(2**32)))
    for _ in range(160):
        geo_int = random_geometry(rng)
        opts = [f"{k}={v}" for k, v in geo_int.items()]
        opts += [f"{k}={rng.choice(vs)}" for k, vs in CHOICES.items()]
        plan.append(("random", RuleSet.from_options(opts), rng.randint(1, 5), rng.randrange(2**32)))
    for i, gc in enumerate(goat_combos() * 2):
        geo = LADDER[i % len(LADDER)]
        opts = _options(geo) + [f"{k}={rng.choice(vs)}" for k, vs in CHOICES.items()]
        opts += [f"{k}={v}" for k, v in gc.items()]
        plan.append(("goats", RuleSet.from_options(opts), rng.randint(1, 5), rng.randrange(2**32)))
    return plan


def random_move(game: Game, rng: random.Random) -> Move:
    """A random legal move that favours playing cards over discarding (so that games reach
    their late middle): three times in four a cheap placement or goat move (cost ≤ 1) where
    there is one, else any legal move."""
    moves = game.legal_moves()
    if rng.random() < 0.75:
        cheap = [m for m in moves if m.kind != DISCARD and len(m.discard) <= 1]
        if cheap:
            return rng.choice(cheap)
    return rng.choice(moves)


def cheap_move(game: Game, rng: random.Random) -> Move:
    """The Summit where it can be played, else the placement (or goat move) with the fewest
    discards, a Bridge after the others and higher rows first, ties broken at random; a
    discard of two only when nothing else is legal. A plain policy that reaches the Summit in
    about a quarter of the games (:func:`random_move` almost never does)."""
    def key(m: Move) -> tuple[float, ...]:
        if m.kind == DISCARD:
            return (1000.0, 0.0, rng.random())
        if m.card is not None and m.card.is_summit:
            return (-1.0, 0.0, rng.random())
        bridge = m.card is not None and m.card.is_bridge
        return (len(m.discard) * 10.0 + (15.0 if bridge else 0.0), -float(m.row), rng.random())

    return min(game.legal_moves(), key=key)


def play_positions(rules: RuleSet, players: int, seed: int, rng: random.Random,
                   per_game: int, cheap: bool = False) -> list[Game]:
    """``per_game`` positions of one game from deal ``seed``: random legal play
    (:func:`random_move`), or with ``cheap`` four moves in five by :func:`cheap_move` (so
    that games reach the Summit). The game is played to its end, then positions at random
    turns are taken (each a copy; the end itself a tenth of the time, and in a won game the
    turn of the Summit and the end half of the time)."""
    g = Game(Deal.from_seed(seed, players, rules))
    while g.outcome() is None and g.turn < 400:
        g.push(cheap_move(g, rng) if cheap and rng.random() < 0.8 else random_move(g, rng))
    length = g.turn
    turns = {rng.randint(0, max(0, length - 1)) for _ in range(per_game)}
    if rng.random() < 0.1 or (g.is_won() and rng.random() < 0.5):
        turns.add(length)
    if g.is_won() and rng.random() < 0.5:
        turns.add(length - 1)
    out = []
    for t in sorted(turns, reverse=True):
        while g.turn > t:
            g.pop()
        out.append(g.copy())
    return out


def placement_row(pl: Placement) -> list[Any]:
    """A placement as the corpus writes it: ``[card, row, slot, to_row, to_slot, cost,
    onto_bridge]``."""
    return [pl.card.text, pl.row, pl.slot, pl.to_row, pl.to_slot, pl.cost, int(pl.onto_bridge)]


def moves_digest(moves: Iterable[Move]) -> str:
    """16 hex digits of the sha256 of the moves' sorted JSON texts (order-free)."""
    texts = sorted(json.dumps(m.to_json(), sort_keys=True) for m in moves)
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def record(game: Game, pid: str, source: str) -> dict[str, Any]:
    """The corpus entry of ``game``: the position (without ``out``, which follows from it) and
    what :mod:`model` generates there."""
    pos = game.to_position()
    del pos["out"]
    moves = game.legal_moves()
    entry: dict[str, Any] = {
        "id": pid, "source": source, "position": pos,
        "placements": sorted(placement_row(p) for p in game.generate_placements()),
        "moves": len(moves), "digest": moves_digest(moves), "outcome": game.outcome(),
    }
    if game.rules.goats_on:
        entry["goat_moves"] = sorted([m.row, m.slot, m.to_row, m.to_slot]
                                     for m in game.generate_goat_moves())
    return entry


def generate(seed: int = SEED, per_game: int = 4) -> dict[str, Any]:
    """The corpus (see the module docstring), deterministic in ``seed``."""
    rng = random.Random(f"perft-play-{seed}")
    positions: list[dict[str, Any]] = []
    for group, rules, players, deal_seed in rule_plan(seed):
        cheap = rng.random() < 0.4
        for g in play_positions(rules, players, deal_seed, rng, per_game, cheap):
            pid = f"p{len(positions) + 1:04d}"
            source = (f"{group}: {rules.describe()}, {players} players, deal {deal_seed}, "
                      f"turn {g.turn}{', cheap play' if cheap else ''}")
            positions.append(record(g, pid, source))
    return {"format": FORMAT, "version": VERSION, "seed": seed,
            "generator": "python -m benchmarks.perft generate", "positions": positions}


def write_corpus(corpus: dict[str, Any], path: Path) -> None:
    """Write ``corpus`` as gzip JSON, byte for byte the same for the same corpus (no time
    stamp), whole or not at all."""
    raw = json.dumps(corpus, separators=(",", ":"), sort_keys=False).encode()
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(raw)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


def load_corpus(path: Path = CORPUS) -> dict[str, Any]:
    """The corpus at ``path``; ``ValueError`` if it is not one."""
    data = json.loads(gzip.decompress(path.read_bytes()))
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"{path} is not an {FORMAT} corpus of version {VERSION}")
    return data


# ---- the comparison --------------------------------------------------------------------------

@dataclass
class Report:
    """What :func:`check_position` found over a run: positions compared per implementation,
    positions an implementation does not represent (per implementation, by id), positions
    where the search engines list only the Summit, won positions (no moves to compare in the
    search engines), and every difference found (one line each, naming the position and the
    move)."""

    compared: Counter = field(default_factory=Counter)
    unsupported: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in IMPLEMENTATIONS})
    summit_only: Counter = field(default_factory=Counter)
    won: Counter = field(default_factory=Counter)
    successors: Counter = field(default_factory=Counter)
    differences: list[str] = field(default_factory=list)

    def diff(self, pid: str, what: str) -> None:
        self.differences.append(f"{pid}: {what}")


def _norm_state_placement(t: tuple, cards: list, R: int) -> tuple:
    from solver.state import M_BRIDGE_REPLACE, M_CAMPFIRE, M_SUMMIT

    kind, card, r, s, r2, s2, cost = t
    if kind == M_SUMMIT:
        return (cards[card].text, R + 1, 1, 0, 0, cost, 0)
    if kind == M_CAMPFIRE:
        return (cards[card].text, r + 1, s + 1, r2 + 1, s2 + 1, cost, 0)
    return (cards[card].text, r + 1, s + 1, 0, 0, cost, int(kind == M_BRIDGE_REPLACE))


def _compare_lists(rep: Report, pid: str, impl: str, what: str, got: list, want: list) -> None:
    gc, wc = Counter(got), Counter(want)
    for x in sorted(wc - gc, key=str):
        rep.diff(pid, f"{impl} misses the {what} {x}")
    for x in sorted(gc - wc, key=str):
        rep.diff(pid, f"{impl} has the {what} {x}, which model/ does not")


def _model_successor(game: Game, move: Move) -> Game:
    g = game.copy()
    g.push(move)
    return g


def _sample_moves(game: Game) -> list[Move]:
    """The moves whose successors are compared: each placement paid with its first way to pay,
    and the first discard of two."""
    p = game.to_move
    out = []
    for pl in game.generate_placements():
        rest = list(game.hands[p])
        rest.remove(pl.card)
        out.append(pl.move(p + 1, game.discard_choices(rest, pl.cost)[0]))
    if len(game.hands[p]) >= 2:
        out.append(Move(DISCARD, p + 1, discard=game.discard_choices(game.hands[p], 2)[0]))
    return out


def check_position(entry: dict[str, Any], rep: Report, impls: Iterable[str] = IMPLEMENTATIONS) -> None:
    """Compare one corpus entry: :mod:`model` against the record, then each implementation of
    ``impls`` against :mod:`model`; differences go to ``rep``."""
    pid = entry["id"]
    game = position_from_data(entry["position"])
    placements = list(game.generate_placements())
    want_pl = [tuple(placement_row(p)) for p in placements]
    moves = game.legal_moves()
    # model/ itself against the record (the rules did not change under the corpus)
    _compare_lists(rep, pid, "model/ (now)", "placement", want_pl,
                   [tuple(x) for x in entry["placements"]])
    if len(moves) != entry["moves"] or moves_digest(moves) != entry["digest"]:
        rep.diff(pid, f"model/ now generates {len(moves)} moves (digest {moves_digest(moves)}), "
                      f"the corpus {entry['moves']} (digest {entry['digest']})")
    if game.outcome() != entry["outcome"]:
        rep.diff(pid, f"model/ now says {game.outcome()}, the corpus {entry['outcome']}")
    if game.rules.goats_on:
        goat = sorted([m.row, m.slot, m.to_row, m.to_slot] for m in game.generate_goat_moves())
        if goat != entry.get("goat_moves"):
            rep.diff(pid, f"model/ now generates the goat moves {goat}, the corpus "
                          f"{entry.get('goat_moves')}")
    rep.compared["model"] += 1
    sample = _sample_moves(game) if game.outcome() is None else []
    after = [_model_successor(game, m) for m in sample]
    for impl in impls:
        {"state": _check_state, "core": _check_core, "playout": _check_playout}[impl](
            rep, pid, game, want_pl, moves, sample, after)


def _compact_unsupported(rep: Report, impl: str, pid: str, game: Game) -> bool:
    from solver.generic import needs_generic

    if needs_generic(game.rules):
        rep.unsupported[impl].append(pid)
        return True
    return False


def _search_moves(rep: Report, pid: str, impl: str, game: Game, state, children: list,
                  moves: list[Move]) -> None:
    """The searches' expanded moves (internal tuples) against :mod:`model`'s."""
    from solver.state import M_SUMMIT

    got = [state.to_moves([c])[0] for c in children]  # each a move of the player to move
    if any(c[0] == M_SUMMIT for c in children):
        rep.summit_only[impl] += 1
        if len(children) != 1 or got[0] not in moves:
            rep.diff(pid, f"{impl} lists {len(children)} moves with the Summit, not the Summit alone")
        return
    if len(set(got)) != len(got):
        rep.diff(pid, f"{impl} lists a move twice")
    _compare_lists(rep, pid, impl, "move", [str(m) for m in got], [str(m) for m in moves])


def _compact_snapshot(state, g: Game) -> tuple:
    """``g`` in the compact state's terms: (rows, hands, ptr, to_move or None once won,
    filled)."""
    rows, hands, ptr, to_move, peak = state.snapshot_of(g)
    filled = sum(len(r) for r in rows) + peak
    return ([list(r) for r in rows], [list(h) for h in hands], list(ptr),
            None if g.is_won() else to_move, filled)


def _check_state(rep: Report, pid: str, game: Game, want_pl: list, moves: list[Move],
                 sample: list[Move], after: list[Game]) -> None:
    from solver.state import State

    if _compact_unsupported(rep, "state", pid, game):
        return
    st = State(game, "none")
    st.sw.dominance = False
    rep.compared["state"] += 1
    got = [_norm_state_placement(t, st.t.cards, st.R) for t in st.placements(st.to_move)]
    if game.is_won():
        rep.won["state"] += 1
        if st.filled != st._slots_total:
            rep.diff(pid, "state: the game is won but the peak is not counted filled")
        return
    _compare_lists(rep, pid, "state", "placement", got, want_pl)
    children = st.children(st.dead_flags())
    _search_moves(rep, pid, "state", game, st, children, moves)
    if (not children) != (game.outcome() == "loss"):
        rep.diff(pid, f"state: {len(children)} moves where model/ says {game.outcome()}")
    before = st.snapshot(), st.filled, st.n_bridges, list(st.remaining)
    for m, g in zip(sample, after):
        (im,) = st.from_moves([m])
        rec = st.apply(im)
        snap = st.snapshot()
        now = ([list(r) for r in snap[0]], [list(h) for h in snap[1]], list(snap[2]),
               None if st.filled == st._slots_total else snap[3], st.filled)
        st.undo(im, rec)
        rep.successors["state"] += 1
        if now != _compact_snapshot(st, g):
            rep.diff(pid, f"state: the position after {m} differs from model/'s")
        if (st.snapshot(), st.filled, st.n_bridges, list(st.remaining)) != before:
            rep.diff(pid, f"state: undo of {m} does not give back the position")


def _check_core(rep: Report, pid: str, game: Game, want_pl: list, moves: list[Move],
                sample: list[Move], after: list[Game]) -> None:
    from solver.exhaustive import Search
    from solver.state import Switches

    if _compact_unsupported(rep, "core", pid, game):
        return
    s = Search(game, "none", Switches(dominance=False), None, None)
    core = s.core()
    if core is None:
        raise RuntimeError("the compiled core is not available (solver.exhaustive.core_status())")
    core.set_state(s.rows, s.hands, s.ptr, s.to_move, s.filled - sum(len(r) for r in s.rows))
    rep.compared["core"] += 1
    if game.is_won():
        rep.won["core"] += 1
        return
    got = [_norm_state_placement(t, s.t.cards, s.R) for t in core.placements()]
    _compare_lists(rep, pid, "core", "placement", got, want_pl)
    children = core.children()
    _search_moves(rep, pid, "core", game, s, children, moves)
    if (not children) != (game.outcome() == "loss"):
        rep.diff(pid, f"core: {len(children)} moves where model/ says {game.outcome()}")
    for m, g in zip(sample, after):
        (im,) = s.from_moves([m])
        try:
            rows, hands, ptr, to_move, filled, _ = core.successor(im)
        except RuntimeError as exc:
            rep.diff(pid, f"core: {m}: {exc}")
            continue
        rep.successors["core"] += 1
        now = (rows, hands, ptr, None if filled == s._slots_total else to_move, filled)
        if now != _compact_snapshot(s, g):
            rep.diff(pid, f"core: the position after {m} differs from model/'s")


def _check_playout(rep: Report, pid: str, game: Game, want_pl: list, moves: list[Move],
                   sample: list[Move], after: list[Game]) -> None:
    from bots import fastplay

    if not fastplay.supported(game.rules):
        rep.unsupported["playout"].append(pid)
        return
    if not fastplay.AVAILABLE:
        raise RuntimeError("the compiled playout engine is not available (bots._playout)")
    w = fastplay.make_world(game)
    assert isinstance(w, fastplay.FastWorld)
    rep.compared["playout"] += 1
    got = [tuple(placement_row(p)) for p in w.placements()]
    _compare_lists(rep, pid, "playout", "placement", got, want_pl)
    if w.outcome() != game.outcome():
        rep.diff(pid, f"playout: outcome {w.outcome()} where model/ says {game.outcome()}")
    for m, g in zip(sample, after):
        x = w.copy()
        x.push(m)
        rep.successors["playout"] += 1
        if x.to_game().to_position() != g.to_position():
            rep.diff(pid, f"playout: the position after {m} differs from model/'s")


def check_corpus(corpus: dict[str, Any], every: int = 1, impls: Iterable[str] = IMPLEMENTATIONS,
                 offset: int = 0) -> Report:
    """:func:`check_position` on every ``every``-th position of ``corpus`` (from ``offset``)."""
    rep = Report()
    impls = tuple(impls)
    for entry in corpus["positions"][offset::every]:
        check_position(entry, rep, impls)
    return rep


def _is_goat(entry: dict[str, Any]) -> bool:
    return entry["position"]["rules"].get("goats") == "on"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.perft", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="write the corpus (deterministic)")
    g.add_argument("--out", type=Path, default=CORPUS)
    g.add_argument("--seed", type=int, default=SEED)
    c = sub.add_parser("check", help="compare every implementation with model/ on the corpus")
    c.add_argument("--corpus", type=Path, default=CORPUS)
    c.add_argument("--every", type=int, default=1, help="every K-th position only")
    a = ap.parse_args(argv)
    if a.cmd == "generate":
        t = time.process_time()
        corpus = generate(a.seed)
        write_corpus(corpus, a.out)
        n = len(corpus["positions"])
        print(f"{n} positions, {sum(p['moves'] for p in corpus['positions'])} moves, "
              f"{a.out.stat().st_size:,} bytes → {a.out} ({time.process_time() - t:.1f} s CPU)")
        return 0
    corpus = load_corpus(a.corpus)
    t = time.process_time()
    rep = check_corpus(corpus, a.every)
    print(f"{sum(1 for _ in corpus['positions'][::a.every])} positions in "
          f"{time.process_time() - t:.1f} s CPU; compared: {dict(rep.compared)}; "
          f"successors: {dict(rep.successors)}; unsupported: "
          f"{ {k: len(v) for k, v in rep.unsupported.items()} }; Summit only: {dict(rep.summit_only)}; "
          f"won: {dict(rep.won)}")
    for d in rep.differences[:50]:
        print(d)
    return 1 if rep.differences else 0


if __name__ == "__main__":
    sys.exit(main())
