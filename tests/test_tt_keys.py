"""benchmarks/tt_keys.py: the bit-exact packing it measures (issue 39 step 3) is lossless on
the keys a real search writes to its transposition table: every key parses, packs and
unpacks back to itself, and two different keys never pack to the same bits (an exact
compact table compares packed keys, so this is what keeps it from a false proof)."""

from __future__ import annotations

import pytest

from benchmarks.tt_keys import pack, parse_key, unpack, widths
from benchmarks.waste_ladder import RUNGS

RUNG4 = RUNGS[0]


@pytest.mark.parametrize("players", [pytest.param(1, marks=pytest.mark.slow), 2])
def test_packing_is_lossless_and_injective(players: int) -> None:
    from benchmarks.tt_keys import table_keys

    keys, _res, _secs, _s = table_keys(RUNG4, 301, 50_000, players)
    assert len(keys) > 100  # the search really wrote to its table
    parsed = {k: parse_key(k, 4, players) for k in keys}
    w = widths(list(parsed.values()), players)
    packed = {}
    for k, p in parsed.items():
        v, nb = pack(p, w)
        assert unpack(v, nb, 4, players, w) == p
        packed[(v, nb)] = k
    assert len(packed) == len(keys)


def test_parse_rejects_a_key_off_its_layout() -> None:
    with pytest.raises(ValueError):
        parse_key(bytes([0, 1, 254, 2, 254, 254, 254, 3, 254, 0, 5, 9]), 4, 1)


def test_pack_refuses_a_field_wider_than_its_width() -> None:
    w = {"turn": 0, "rlen": 3, "cnt": 3, "code": 3, "hand": 3, "ptr": 4}
    with pytest.raises(ValueError):
        pack((0, [(False, None, bytes([9]))], []), w)
