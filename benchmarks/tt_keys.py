"""How long the transposition table's keys are, and how many would fit a compact exact entry
(issue 39 step 3, the measurement before the design).

The compiled core keeps a 128-bit fingerprint of each learned key (:mod:`solver.nogood`,
``learned_key``: the player to move, each row from its anchor, the canonical hands, the deck
pointers) in a 32-byte slot of an open-addressing table at most half full. An exact compact
table would store the key itself, bit-packed, in the entry: this script measures, on the keys
the search really stores, the byte length of the key and the length of a bit-exact packing
of it, and so the share of keys that fits 16, 24 or 32 bytes of key (the rest would take an
exact overflow path).

The packing measured (lossless; every field is a fixed width of the deal, so the key can be
decoded back): the player to move in ceil(log2 P) bits; each row: one bit "written from its
anchor", then (if so) the row's length, then the number of cards written and the cards; each
player: the hand's number of cards and the cards, the deck pointer. Card codes take
ceil(log2(largest code + 1)) bits, lengths and pointers the width of the largest value seen
in the run (a real table would take them from the geometry: decks and rows are bounded).

For each deal (solo, hand 5, a rung of :data:`benchmarks.waste_ladder.RUNGS` and a seed) one
:class:`solver.exhaustive.Search` with ``core=False`` (it visits the core's nodes and keys)
runs its own schedule for objective ``waste`` within a node limit; every key written to its
table is recorded. Run ``nice -n 10 python -m benchmarks.tt_keys --help``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

FRONT_MARK = 253
SEP = 254


def _bits(n: int) -> int:
    """Bits to write a whole number 0..n (at least 1)."""
    return max(1, int(n).bit_length())


def parse_key(key: bytes, rows: int, players: int) -> tuple[int, list, list]:
    """Split a learned key (``Nogoods.learned_key`` bytes) into (to move, rows, players):
    rows as (anchored, row length or None, cards), players as (hand cards, deck pointer).

    Raises ValueError when the bytes do not follow that layout."""
    i = 0
    to_move = key[i]
    i += 1
    out_rows = []
    for _ in range(rows):
        anchored, rlen = False, None
        if key[i] == FRONT_MARK:
            anchored, rlen = True, key[i + 1]
            i += 2
        j = key.index(SEP, i)
        out_rows.append((anchored, rlen, key[i:j]))
        i = j + 1
    out_players = []
    for _ in range(players):
        j = key.index(SEP, i)
        hand = key[i:j]
        ptr = key[j + 1] << 8 | key[j + 2]
        out_players.append((hand, ptr))
        i = j + 3
    if i != len(key):
        raise ValueError("key longer than its layout")
    return to_move, out_rows, out_players


def widths(parsed: list[tuple[int, list, list]], players: int) -> dict[str, int]:
    """Field widths in bits for the packing of the module docstring, from the largest values
    among the parsed keys: ``code`` (a card), ``rlen`` (a row's length), ``cnt`` (cards
    written of a row), ``hand`` (cards in a hand), ``ptr`` (a deck pointer), ``turn``."""
    code = rlen = cnt = hand = ptr = 0
    for _, rows, pls in parsed:
        for _a, rl, cards in rows:
            rlen = max(rlen, rl or 0)
            cnt = max(cnt, len(cards))
            code = max([code, *cards])
        for h, p in pls:
            hand = max(hand, len(h))
            ptr = max(ptr, p)
            code = max([code, *h])
    return {"code": _bits(code), "rlen": _bits(rlen), "cnt": _bits(cnt), "hand": _bits(hand),
            "ptr": _bits(ptr), "turn": (players - 1).bit_length()}


def pack(parsed: tuple[int, list, list], w: dict[str, int]) -> tuple[int, int]:
    """The packing of one parsed key: (the bits as a whole number, their count). Lossless:
    :func:`unpack` gives the parsed key back (every list is preceded by its length)."""
    v = nb = 0

    def put(x: int, width: int) -> None:
        nonlocal v, nb
        if x >> width:
            raise ValueError(f"{x} does not fit {width} bits")
        v, nb = v << width | x, nb + width

    to_move, rows, pls = parsed
    put(to_move, w["turn"])
    for anchored, rl, cards in rows:
        put(int(anchored), 1)
        if anchored:
            put(rl, w["rlen"])
        put(len(cards), w["cnt"])
        for c in cards:
            put(c, w["code"])
    for h, p in pls:
        put(len(h), w["hand"])
        for c in h:
            put(c, w["code"])
        put(p, w["ptr"])
    return v, nb


def unpack(v: int, nb: int, rows: int, players: int, w: dict[str, int]) -> tuple[int, list, list]:
    """The inverse of :func:`pack` (``rows`` rows, ``players`` players)."""
    pos = nb

    def get(width: int) -> int:
        nonlocal pos
        pos -= width
        return (v >> pos) & ((1 << width) - 1)

    to_move = get(w["turn"])
    out_rows = []
    for _ in range(rows):
        anchored = bool(get(1))
        rl = get(w["rlen"]) if anchored else None
        n = get(w["cnt"])
        out_rows.append((anchored, rl, bytes(get(w["code"]) for _ in range(n))))
    out_pls = []
    for _ in range(players):
        n = get(w["hand"])
        h = bytes(get(w["code"]) for _ in range(n))
        out_pls.append((h, get(w["ptr"])))
    if pos != 0:
        raise ValueError("bits left over")
    return to_move, out_rows, out_pls


def packed_bits(parsed: list[tuple[int, list, list]], players: int) -> list[int]:
    """The bit length of the packing (:func:`pack`) of each parsed key, with the field widths
    of :func:`widths` over all of them."""
    w = widths(parsed, players)
    return [pack(p, w)[1] for p in parsed]


def table_keys(rules_text: str, seed: int, node_limit: int, players: int = 1
               ) -> tuple[set[bytes], Any, float, Any]:
    """Every distinct key the Python search (``core=False``, table never full) writes to its
    transposition table on one deal (hand 5), objective waste: (keys, result, CPU seconds,
    the search)."""
    from benchmarks.frontier import _rules
    from model.deal import Deal
    from solver.exhaustive import Search
    from solver.state import Switches

    rules = _rules(rules_text + ",hand_size=5")
    deal = Deal.from_seed(seed, players, rules)
    sw = Switches()
    sw.core = False
    sw.table_size = 1 << 30  # keep every key: the distribution, not the policy, is measured
    s = Search(deal, "waste", sw, None, node_limit)
    keys: set[bytes] = set()

    class Recording(dict):
        def __setitem__(self, key, value) -> None:
            keys.add(key)
            super().__setitem__(key, value)

    s.tt = Recording()
    t = time.process_time()
    res = s.run()
    return keys, res, time.process_time() - t, s


def measure(rules_text: str, seed: int, node_limit: int) -> dict[str, Any]:
    """One deal, solo: the key lengths of the module docstring."""
    from benchmarks.frontier import _rules

    keys, res, secs, s = table_keys(rules_text, seed, node_limit)
    rows = _rules(rules_text).rows
    parsed = [parse_key(k, rows, 1) for k in keys]
    bits = packed_bits(parsed, 1)
    nbytes = sorted(len(k) for k in keys)
    pbytes = sorted((b + 7) // 8 for b in bits)
    n = len(keys)

    def share(xs: list[int], cap: int) -> float:
        return round(sum(1 for x in xs if x <= cap) / n, 4) if n else 0.0

    def pct(xs: list[int], q: float) -> int:
        return xs[min(n - 1, int(q * n))] if n else 0

    return {"rules": rules_text, "seed": seed, "node_limit": node_limit, "nodes": s.nodes,
            "verdict": res.verdict, "keys": n,
            "key_bytes": {"mean": round(sum(nbytes) / n, 1) if n else 0,
                          "p50": pct(nbytes, 0.5), "p99": pct(nbytes, 0.99),
                          "max": nbytes[-1] if n else 0},
            "packed_bytes": {"mean": round(sum(pbytes) / n, 1) if n else 0,
                             "p50": pct(pbytes, 0.5), "p99": pct(pbytes, 0.99),
                             "max": pbytes[-1] if n else 0},
            "fits_raw": {c: share(nbytes, c) for c in (16, 24, 32)},
            "fits_packed": {c: share(pbytes, c) for c in (16, 24, 32)},
            "cpu_seconds": round(secs, 1)}


def report(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The markdown table of the rows."""
    out = ["# The transposition table's keys: lengths and a bit-exact packing", "",
           f"Run {meta['date']} on {meta['machine']}; load average {meta['load_start']} at the "
           f"start, {meta['load_end']} at the end. The Python reference search (`core=False`, "
           "the core's nodes and keys), objective waste, solo, hand 5, its own schedule within "
           "the node limit; every distinct key written to the table.", "",
           "| deal | nodes | keys | key bytes mean/p50/p99/max | packed bytes mean/p50/p99/max "
           "| raw fits 16/24/32 B | packed fits 16/24/32 B | CPU s |",
           "|---|---|---|---|---|---|---|---|"]

    def four(d: dict) -> str:
        return f"{d['mean']} / {d['p50']} / {d['p99']} / {d['max']}"

    def three(d: dict) -> str:
        return " / ".join(f"{100 * d[c]:.1f}%" for c in d)

    for r in rows:
        rows_n = r["rules"].split(",")[0]
        out.append(f"| {rows_n} seed {r['seed']} | {r['nodes']:,} | {r['keys']:,} | "
                   f"{four(r['key_bytes'])} | {four(r['packed_bytes'])} | "
                   f"{three(r['fits_raw'])} | {three(r['fits_packed'])} | {r['cpu_seconds']} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--out DIR --nodes N --deals rows=6:301,rows=7:301``."""
    from benchmarks.waste_ladder import RUNGS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--deals", default="6:301,7:301", help="rows:seed, comma separated")
    a = ap.parse_args(argv)
    meta = {"date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "load_start": " ".join(f"{x:.1f}" for x in os.getloadavg())}
    rows = []
    for d in a.deals.split(","):
        r, seed = d.split(":")
        rules = next(x for x in RUNGS if x.startswith(f"rows={r},"))
        rows.append(measure(rules, int(seed), a.nodes))
        print(json.dumps(rows[-1]), flush=True)
    meta["load_end"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    a.out.mkdir(parents=True, exist_ok=True)
    for name, text in (("rows.jsonl", "".join(json.dumps(r) + "\n" for r in rows)),
                       ("report.md", report(rows, meta))):
        tmp = a.out / (name + ".tmp")
        tmp.write_text(text)
        tmp.replace(a.out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
