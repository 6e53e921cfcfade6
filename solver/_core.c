/* solver/_core.c: the compiled search core of the exhaustive DFS.
 *
 * A line-for-line port of the hot path of the pure-Python search, which stays the
 * reference: the compact state and its moves (solver/state.py: placements, children,
 * discard_sets, the search order, apply/undo, dead_flags, key), the bounds
 * (solver/bounds.py: bound_fails, waste_lower_bound; solver/windows.py:
 * players_window_bound, players_turns_bound), the memoized DFS (solver/exhaustive.py:
 * Search.dfs with the principal-variation order of solver/frontier.py) and the
 * furthest-line search (Search.furthest).  The same moves are generated, in the same
 * order, with the same cuts, so a search gives the same answer, the same plan and the
 * same node count with or without this core (tests/test_core.py checks it).
 *
 * Differences, by design:
 *  - the transposition table is exact but not a dict: each entry holds the state key
 *    itself (the bytes of Nogoods.learned_key, bit-packed into widths taken from the
 *    geometry: pack_key), and a hit compares the whole key, never a hash alone. A 40-byte
 *    slot holds a key of up to 32 packed bytes; a longer one lives in an overflow arena.
 *    Until the table holds `table_size` entries nothing is dropped (so the search is the
 *    reference's node for node); then each new key replaces, within its probe sequence,
 *    the entry of an older generation (one DFS call), else the one with the smallest bound
 *    (see "the exact transposition table" below and docs/solver.md). The reference drops
 *    the older half in insertion order instead, so past that point the node counts differ;
 *    every bound stays true (tests/test_ctable.py checks it against tests/reference.py).
 *    The furthest-line seen-set is exact the same way; only the move-order hints (PV) and
 *    the beam's duplicate check, which cannot make an answer wrong, keep 128-bit
 *    fingerprints;
 *  - limits: every 1024 nodes (and at the node limit) the core calls back into Python
 *    (Search._core_check), which runs NodeLimits._check_limits: the deadline on the
 *    clock the search module reads, the node limit, progress reports; Ctrl-C and SIGTERM
 *    are delivered there too (PyErr_CheckSignals).
 *
 * Rulings mirrored: R3-R10 placement legality and cost (R6 reference walk with Campfires
 * looked through, R8 bridge replacement with max/left cost, R9 campfire moves with paid or
 * free cost), R11 turn and draw, R12 (no move is a loss), R13 own decks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules_core.h"

#define INF ((int64_t)1 << 30)
enum { K_ASCENT = 0, K_CAMPFIRE = 1, K_BRIDGE = 2, K_SUMMIT = 3 };
enum { M_PLACE = 0, M_BRIDGE_REPLACE = 1, M_CAMPFIRE = 2, M_DISCARD = 3, M_SUMMIT = 4 };
enum { OBJ_NONE = 0, OBJ_WASTE = 1, OBJ_TURNS = 2 };
enum { PR_SUMMIT = 0, PR_HEIGHT = 1, PR_CARDS = 2, PR_OBJECTIVE = 3, PR_SPARE = 4 };

#define MAXR 8
#define MAXLEN 16
#define MAXP 5
#define MAXH 8
#define MAXT 250
#define KEYMAX 512
#define NKEY 20

typedef struct {
    int8_t kind;
    int16_t card;
    int8_t r, s, r2, s2;
    int8_t nd;
    uint8_t disc[MAXH];
    int16_t okey[NKEY]; /* search order key (State._order_key), -1 terminated discards */
} Move;

typedef struct {
    uint64_t a, b;
} FP;

/* ---- hash tables ------------------------------------------------------------------ */

/* Fingerprints (128 bits) remain only where a collision cannot make an answer wrong: the
 * principal-variation hints (a move order) and the beam's duplicate check (a heuristic whose
 * wins are replayed). The transposition table and the furthest-line seen-set are exact. */
typedef struct {
    uint64_t a, b;
    Move mv;
    int used;
} PVEntry;

static inline uint64_t fmix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static FP fingerprint(const uint8_t *buf, size_t n) {
    uint64_t h1 = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, h2 = 0xD6E8FEB86659FD93ULL + (uint64_t)n;
    size_t i = 0;
    while (i < n) {
        uint64_t w = 0;
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(&w, buf + i, k);
        i += k;
        h1 = fmix64(h1 ^ w) + 0x2545F4914F6CDD1DULL;
        h2 = fmix64((h2 + w) * 0x9FB21C651E98DF25ULL) ^ (h2 >> 29);
    }
    FP f;
    f.a = fmix64(h1 ^ (h2 << 1));
    f.b = fmix64(h2 + 0x632BE59BD9B4E019ULL) | 1; /* never (0, 0): 0 marks an empty slot */
    return f;
}

/* ---- the exact key: the state key bit-packed (benchmarks/tt_keys.py) ----------------- */

/* Field widths of the packing, from the geometry (Core_init): every value of a key this
 * core builds fits them; a key that does not (bytes off the layout, e.g. given by Python)
 * is kept as its raw bytes instead, flagged "raw", so the key stays exact either way. */
typedef struct {
    int R, P, nogood;
    int w_turn, w_len, w_code, w_hand, w_ptr;
    int rowlen[MAXR];
    int nt, maxdeck;
} KeyShape;

static int bits_for(int n) { /* bits to write 0..n, at least 1 */
    int b = 1;
    while ((n >> b) > 0) b++;
    return b;
}

typedef struct {
    uint8_t *out;
    size_t o;
    uint64_t acc;
    int nacc;
} BitW;

static inline void bw_put(BitW *w, unsigned x, int width) {
    if (!width) return;
    w->acc |= (uint64_t)x << w->nacc;
    w->nacc += width;
    while (w->nacc >= 8) {
        w->out[w->o++] = (uint8_t)(w->acc & 255);
        w->acc >>= 8;
        w->nacc -= 8;
    }
}

/* The packing of a state key (State.key or Nogoods.learned_key bytes: the player to move;
 * per row [253, row length] when written from its anchor, its cards, 254; per player the
 * hand, 254, the deck pointer in two bytes) into out (KEYMAX bytes): the player to move;
 * per row the anchor bit (switch nogood only), the row length if anchored, the number of
 * cards and the cards; per player the hand's size and cards and the deck pointer. Each list
 * is preceded by its length, so the packing is injective (tests/test_tt_keys.py checks the
 * same packing in Python). Returns the packed length in bytes, or -1 when the bytes do not
 * follow the layout or a value does not fit its width. */
static int pack_key(const KeyShape *ks, const uint8_t *k, size_t n, uint8_t *out) {
    BitW w = {out, 0, 0, 0};
    size_t i = 0;
    if (n < 1 || k[0] >= ks->P) return -1;
    bw_put(&w, k[i++], ks->w_turn);
    for (int r = 0; r < ks->R; r++) {
        int anchored = 0, rl = 0;
        if (i < n && k[i] == 253) {
            if (!ks->nogood || i + 1 >= n) return -1;
            anchored = 1;
            rl = k[i + 1];
            if (rl > ks->rowlen[r]) return -1;
            i += 2;
        }
        size_t j = i;
        while (j < n && k[j] != 254) j++;
        if (j >= n || (int)(j - i) > ks->rowlen[r]) return -1;
        if (ks->nogood) bw_put(&w, (unsigned)anchored, 1);
        if (anchored) bw_put(&w, (unsigned)rl, ks->w_len);
        bw_put(&w, (unsigned)(j - i), ks->w_len);
        for (; i < j; i++) {
            if (k[i] >= ks->nt) return -1;
            bw_put(&w, k[i], ks->w_code);
        }
        i = j + 1;
    }
    for (int p = 0; p < ks->P; p++) {
        size_t j = i;
        while (j < n && k[j] != 254) j++;
        if (j + 3 > n) return -1; /* the 254 and the pointer's two bytes */
        if ((int)(j - i) >= (1 << ks->w_hand)) return -1;
        bw_put(&w, (unsigned)(j - i), ks->w_hand);
        for (; i < j; i++) {
            if (k[i] > ks->nt) return -1;
            bw_put(&w, k[i], ks->w_code);
        }
        int ptr = k[j + 1] << 8 | k[j + 2];
        if (ptr > ks->maxdeck) return -1;
        bw_put(&w, (unsigned)ptr, ks->w_ptr);
        i = j + 3;
    }
    if (i != n) return -1;
    if (w.nacc) w.out[w.o++] = (uint8_t)w.acc;
    return (int)w.o;
}

/* ---- the exact transposition table ------------------------------------------------------
 *
 * Open addressing with linear probing over 40-byte slots, each with a control byte in a
 * separate array (0 empty, else 7 bits of the hash: a probe reads a slot only where its
 * control byte matches). A slot holds the packed key
 * itself (up to XKEYW bytes inline, zero padded, and its length), or, for a longer key, the
 * offset of its bytes in the overflow arena; a lookup compares the whole key (flags, length
 * and bytes); the 16-bit tag of the hash only skips slots early. No key is ever identified by
 * its hash alone.
 *
 * Capacity: grows by doubling from 4,096 slots up to max_slots (from the table's entries:
 * entries * 4 / 3, so it is at most 3/4 full); a failed allocation caps it where it is.
 * Replacement, once the table holds `limit` entries (the table size of the memory option)
 * or cannot grow: a new key takes, among the occupied slots of its probe sequence before the
 * first empty one (at most XWINDOW), the slot whose entry is of an older generation (a
 * generation is one call of the DFS: one budget of the deepening), else the one with the
 * smallest stored bound (the cheapest to prove again); where its home slot is empty, the
 * entry chosen the same way among the next XWINDOW slots is deleted (backward shift) and
 * the new key takes its home slot. So it never holds more than `limit` entries (a dropped
 * bound only costs nodes, never soundness). Until the table holds `limit` entries nothing
 * is dropped, as in the Python reference's dict. The overflow arena is capped at amax bytes
 * (compacted when it fills; a key that still does not fit is not stored, counted in
 * `skipped`). */
#define XKEYW 32
#define XWINDOW 8
#define XM_USED 0x80
#define XM_OVER 0x40
#define XM_RAW 0x20
#define XM_GEN 0x1f

typedef struct {
    uint8_t key[XKEYW]; /* packed key, or (overflow) the arena offset in the first 8 bytes */
    int32_t val;
    uint16_t tag;
    uint8_t len;  /* inline key length in bytes (overflow: 0; the arena holds it) */
    uint8_t meta; /* XM_USED, XM_OVER, XM_RAW, generation (5 bits) */
} XEntry;

typedef struct {
    const uint8_t *b;
    size_t n;
    int raw;
    uint64_t h;
} XKey;

typedef struct {
    XEntry *e;
    uint8_t *ctrl; /* a control byte a slot: 0 empty, else 0x80 | 7 bits of the key's hash,
                      so that a probe reads the slots themselves only where these match */
    size_t cap, count, max_slots, limit;
    uint8_t gen;
    uint8_t *arena;
    size_t alen, acap, agarbage, amax;
    size_t n_over, n_raw;
    int64_t writes_new, writes_raised, replaced, skipped;
    int hcut;       /* tests only (tt_debug_hash_bits): hashes cut to the bits of hmask, so
                       that keys collide on purpose; 0: the full hash */
    uint64_t hmask;
} XT;

static uint64_t hash_bytes(const uint8_t *b, size_t n, int raw) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)n << 1) ^ (uint64_t)raw;
    size_t i = 0;
    while (i < n) {
        uint64_t w = 0;
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(&w, b + i, k);
        i += k;
        h = fmix64(h ^ w) + 0x2545F4914F6CDD1DULL;
    }
    return fmix64(h);
}

/* the table's hash of a key hash (the full one, or, under a test's hmask, a few bits of it
 * mixed again: equal for many keys, consistently in every probe, grow and deletion) */
static inline uint64_t xt_h(const XT *t, uint64_t h) { return t->hcut ? fmix64(h & t->hmask) : h; }

static inline uint8_t xt_ctrl_of(uint64_t h) { return (uint8_t)(0x80 | ((h >> 16) & 0x7f)); }

static inline size_t xt_home(uint64_t h, size_t cap) {
    return (size_t)(((unsigned __int128)h * cap) >> 64);
}

static inline const uint8_t *xt_bytes(const XT *t, const XEntry *x, size_t *n) {
    if (x->meta & XM_OVER) {
        uint64_t off;
        memcpy(&off, x->key, 8);
        uint16_t l;
        memcpy(&l, t->arena + off, 2);
        *n = l;
        return t->arena + off + 2;
    }
    *n = x->len;
    return x->key;
}

static inline int xt_eq(const XT *t, const XEntry *x, const XKey *k) {
    if (x->tag != (uint16_t)xt_h(t, k->h) || ((x->meta & XM_RAW) != 0) != (k->raw != 0)) return 0;
    size_t n;
    const uint8_t *b = xt_bytes(t, x, &n);
    return n == k->n && memcmp(b, k->b, n) == 0;
}

static XEntry *xt_find(XT *t, const XKey *k) {
    if (!t->e) return NULL;
    uint64_t h = xt_h(t, k->h);
    uint8_t want = xt_ctrl_of(h);
    size_t i = xt_home(h, t->cap);
    for (;;) {
        uint8_t c = t->ctrl[i];
        if (!c) return NULL;
        if (c == want && xt_eq(t, &t->e[i], k)) return &t->e[i];
        if (++i == t->cap) i = 0;
    }
}

static void xt_free_key(XT *t, XEntry *x) { /* forget a slot's key (its overflow bytes) */
    if (x->meta & XM_OVER) {
        size_t n;
        xt_bytes(t, x, &n);
        t->agarbage += n + 2;
        t->n_over--;
    }
    if (x->meta & XM_RAW) t->n_raw--;
}

static void xt_clear(XT *t) {
    free(t->e);
    free(t->ctrl);
    free(t->arena);
    t->e = NULL;
    t->ctrl = NULL;
    t->arena = NULL;
    t->cap = t->count = t->alen = t->acap = t->agarbage = 0;
    t->n_over = t->n_raw = 0;
}

/* place an entry (a key not in arr) in a slot array of capacity cap */
static void xt_place(XEntry *arr, uint8_t *ctrl, size_t cap, const XEntry *x, uint64_t h) {
    size_t i = xt_home(h, cap);
    while (ctrl[i])
        if (++i == cap) i = 0;
    arr[i] = *x;
    ctrl[i] = xt_ctrl_of(h);
}

static uint64_t xt_entry_hash(const XT *t, const XEntry *x) {
    size_t n;
    const uint8_t *b = xt_bytes(t, x, &n);
    return xt_h(t, hash_bytes(b, n, (x->meta & XM_RAW) != 0));
}

/* delete slot v's entry, shifting later entries of its cluster back (linear probing's
 * deletion without tombstones: every remaining key stays on its probe sequence) */
static void xt_delete(XT *t, size_t v) {
    xt_free_key(t, &t->e[v]);
    size_t hole = v, j = v;
    for (;;) {
        if (++j == t->cap) j = 0;
        if (!t->ctrl[j]) break;
        size_t h = xt_home(xt_entry_hash(t, &t->e[j]), t->cap);
        int move = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
        if (move) {
            t->e[hole] = t->e[j];
            t->ctrl[hole] = t->ctrl[j];
            hole = j;
        }
    }
    memset(&t->e[hole], 0, sizeof(XEntry));
    t->ctrl[hole] = 0;
    t->count--;
}

static int xt_rehash(XT *t, size_t newcap) {
    XEntry *ne = (XEntry *)calloc(newcap, sizeof(XEntry));
    uint8_t *nc = (uint8_t *)calloc(newcap, 1);
    if (!ne || !nc) {
        free(ne);
        free(nc);
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++)
        if (t->ctrl[i]) xt_place(ne, nc, newcap, &t->e[i], xt_entry_hash(t, &t->e[i]));
    free(t->e);
    free(t->ctrl);
    t->e = ne;
    t->ctrl = nc;
    t->cap = newcap;
    return 0;
}

/* the arena without the bytes of dropped keys */
static int xt_compact(XT *t) {
    size_t need = t->alen - t->agarbage;
    uint8_t *na = (uint8_t *)malloc(need ? need : 1);
    if (!na) return -1;
    size_t o = 0;
    for (size_t i = 0; i < t->cap; i++) {
        XEntry *x = &t->e[i];
        if ((x->meta & (XM_USED | XM_OVER)) != (XM_USED | XM_OVER)) continue;
        uint64_t off;
        memcpy(&off, x->key, 8);
        uint16_t l;
        memcpy(&l, t->arena + off, 2);
        memcpy(na + o, t->arena + off, (size_t)l + 2);
        uint64_t no = o;
        memcpy(x->key, &no, 8);
        o += (size_t)l + 2;
    }
    free(t->arena);
    t->arena = na;
    t->alen = o;
    t->acap = need ? need : 1;
    t->agarbage = 0;
    return 0;
}

/* room in the arena for the overflow bytes of k (compacting or growing it within amax):
 * 0, or 1 when there is none */
static int xt_reserve(XT *t, const XKey *k) {
    if (k->n <= XKEYW) return 0;
    size_t need = k->n + 2;
    if (t->alen + need <= t->acap) return 0;
    if (t->agarbage * 2 >= t->alen && xt_compact(t) == 0 && t->alen + need <= t->acap) return 0;
    size_t nc = t->acap ? t->acap * 2 : 1 << 16;
    while (nc < t->alen + need) nc *= 2;
    if (nc > t->amax) nc = t->amax;
    if (nc < t->alen + need) {
        if (t->agarbage && xt_compact(t) == 0 && t->alen + need <= t->acap) return 0;
        return 1;
    }
    uint8_t *na = (uint8_t *)realloc(t->arena, nc);
    if (!na) return 1;
    t->arena = na;
    t->acap = nc;
    return 0;
}

/* write key k into slot at (empty, or a victim already freed), room reserved (xt_reserve) */
static void xt_write(XT *t, size_t at, const XKey *k, int32_t val) {
    XEntry *x = &t->e[at];
    t->ctrl[at] = xt_ctrl_of(xt_h(t, k->h));
    XEntry n;
    memset(&n, 0, sizeof n);
    if (k->n <= XKEYW) {
        memcpy(n.key, k->b, k->n);
        n.len = (uint8_t)k->n;
    } else {
        uint16_t l = (uint16_t)k->n;
        memcpy(t->arena + t->alen, &l, 2);
        memcpy(t->arena + t->alen + 2, k->b, k->n);
        uint64_t off = t->alen;
        memcpy(n.key, &off, 8);
        t->alen += k->n + 2;
        n.meta |= XM_OVER;
        t->n_over++;
    }
    if (k->raw) {
        n.meta |= XM_RAW;
        t->n_raw++;
    }
    n.meta |= XM_USED | (t->gen & XM_GEN);
    n.val = val;
    n.tag = (uint16_t)xt_h(t, k->h);
    *x = n;
}

static inline uint32_t xt_score(const XT *t, const XEntry *x) { /* the lowest is replaced */
    uint32_t older = (x->meta & XM_GEN) != (t->gen & XM_GEN);
    return (older ? 0u : 0x80000000u) | (uint32_t)(x->val < 0 ? 0 : x->val);
}

/* store val under k: sets the entry of k where `above` is more than its bound (INT64_MAX:
 * always), or adds it under the policy above. Returns 0, or -1 when not even the first
 * slots could be allocated. */
static int xt_store_as(XT *t, const XKey *k, int32_t val, int64_t above) {
    if (!t->e) {
        size_t c = t->max_slots && t->max_slots < 4096 ? t->max_slots : 4096;
        if (c < 16) c = 16;
        t->e = (XEntry *)calloc(c, sizeof(XEntry));
        t->ctrl = (uint8_t *)calloc(c, 1);
        if (!t->e || !t->ctrl) {
            xt_clear(t);
            return -1;
        }
        t->cap = c;
    }
    uint64_t h = xt_h(t, k->h);
    uint8_t want = xt_ctrl_of(h);
    for (;;) {
        size_t i = xt_home(h, t->cap), victim = SIZE_MAX;
        uint32_t vscore = UINT32_MAX;
        int d = 0;
        /* only a full table replaces: score the probe sequence's entries then */
        int may_replace = t->count >= t->limit ||
                          ((t->count + 1) * 4 > t->cap * 3 && t->cap >= t->max_slots);
        for (;;) {
            uint8_t c = t->ctrl[i];
            if (!c) break;
            XEntry *x = &t->e[i];
            if (c == want && xt_eq(t, x, k)) {
                if (above <= (int64_t)x->val) return 0;
                x->val = val;
                x->meta = (uint8_t)((x->meta & ~XM_GEN) | (t->gen & XM_GEN));
                t->writes_raised++;
                return 0;
            }
            if (may_replace && d < XWINDOW) {
                uint32_t sc = xt_score(t, x);
                if (sc < vscore) {
                    vscore = sc;
                    victim = i;
                }
            }
            d++;
            if (++i == t->cap) i = 0;
        }
        int can_grow = t->cap < t->max_slots;
        if (t->count < t->limit && (t->count + 1) * 4 > t->cap * 3 && can_grow) {
            size_t nc = t->cap * 2 > t->max_slots ? t->max_slots : t->cap * 2;
            if (xt_rehash(t, nc) == 0) continue; /* probe again in the larger array */
            t->max_slots = t->cap;               /* no memory: the table stays this size */
            continue;
        }
        int full = t->count >= t->limit || (t->count + 1) * 4 > t->cap * 3;
        size_t at = i;
        if (full && victim == SIZE_MAX) {
            /* the key's home slot is empty (its probe sequence has no entry to replace):
               delete the policy's choice among the next XWINDOW slots, the new key takes
               its home slot */
            size_t j = i;
            for (int q = 0; q < XWINDOW; q++) {
                if (++j == t->cap) j = 0;
                if (!t->ctrl[j]) continue;
                uint32_t sc = xt_score(t, &t->e[j]);
                if (sc < vscore) {
                    vscore = sc;
                    victim = j;
                }
            }
            if (victim == SIZE_MAX || xt_reserve(t, k)) {
                t->skipped++;
                return 0;
            }
            xt_delete(t, victim); /* slots before the victim do not move: i stays empty */
            t->replaced++;
        } else if (xt_reserve(t, k)) {
            t->skipped++;
            return 0;
        } else if (full) {
            at = victim; /* the policy's victim in the probe sequence: replaced in place */
            xt_free_key(t, &t->e[at]);
            t->count--;
            t->replaced++;
        }
        xt_write(t, at, k, val);
        t->count++;
        t->writes_new++;
        return 0;
    }
}

static int xt_store(XT *t, const XKey *k, int32_t val) { return xt_store_as(t, k, val, INT64_MAX); }

/* set semantics (the furthest seen-set): 1 added, 0 there already, -1 no memory */
static int xt_add(XT *t, const XKey *k) {
    if (xt_find(t, k)) return 0;
    size_t c0 = t->count;
    int64_t sk = t->skipped;
    if (xt_store(t, k, 0) < 0) return -1;
    if (t->count == c0 && t->skipped != sk) return -1; /* not stored: out of memory */
    return 1;
}

static int cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* drop half of the entries (older generations first, then the smaller bounds) and halve
 * the slot array (Search._evict before the furthest-line search); returns the number
 * dropped, -1 without memory */
static int64_t xt_evict_half(XT *t) {
    size_t n = t->count / 2;
    if (n == 0 || !t->e) return 0;
    uint64_t *sc = (uint64_t *)malloc(t->count * sizeof(uint64_t));
    if (!sc) return -1;
    size_t k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->ctrl[i]) sc[k++] = (uint64_t)xt_score(t, &t->e[i]) << 32 | (uint64_t)i;
    qsort(sc, k, sizeof(uint64_t), cmp_u64);
    for (size_t j = 0; j < n; j++) {
        size_t i = (size_t)(sc[j] & 0xffffffffu);
        xt_free_key(t, &t->e[i]);
        memset(&t->e[i], 0, sizeof(XEntry));
        t->ctrl[i] = 0;
    }
    free(sc);
    t->count -= n;
    size_t nc = t->cap / 2 < 4096 ? t->cap : t->cap / 2;
    if (t->count * 4 > nc * 3) nc = t->cap;
    if (xt_rehash(t, nc)) return -1;
    if (t->agarbage && xt_compact(t)) return -1;
    return (int64_t)n;
}

/* the key of a state's bytes: packed (shape) into buf, else raw */
static XKey make_xkey(const KeyShape *ks, const uint8_t *raw, size_t n, uint8_t *buf) {
    XKey k;
    int m = pack_key(ks, raw, n, buf);
    if (m >= 0) {
        k.b = buf;
        k.n = (size_t)m;
        k.raw = 0;
    } else {
        k.b = raw;
        k.n = n;
        k.raw = 1;
    }
    k.h = hash_bytes(k.b, k.n, k.raw);
    return k;
}

/* ---- the core object ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    /* tables (solver.state.Tables) */
    int nt; /* number of card types; nt is the dead id */
    int8_t kind[MAXT + 1];
    int16_t value[MAXT + 1];
    int8_t colour[MAXT + 1];
    int8_t maxrow[MAXT + 1];
    int summit, bridge;
    /* rules and geometry */
    int R, rowlen[MAXR], slots_below_peak, slots_total, hand_size, P;
    int look_through, bridge_max, campfire_paid, objective;
    RCRules rules; /* the placement rules (solver/rules_core.h) over the tables above */
    /* switches */
    int sw_transposition, sw_dominance, sw_bounds, sw_window_players, sw_budget, sw_bridge_costs;
    int sw_nogood; /* solver.nogood: the table learns under the row fronts */
    int colourless; /* solver.abstraction: colours ignored (R5 and R9 relaxed) */
    int64_t table_size;
    /* decks and first positions */
    int decklen[MAXP];
    uint8_t *deck[MAXP];
    int16_t first_pos[MAXP][MAXT + 2];
    /* solo waste tables (Bounds._prepare_waste_tables) */
    int solo_ready;
    int *qual_pos[MAXR + 1];
    int qual_len[MAXR + 1];
    int *qual_before[MAXR + 1];
    int64_t *next_summit;
    /* 2-5 players (PlayerWindows._pw_static, _pw_usable) */
    int pw_ready;
    int64_t *nxt_all[MAXP];
    int *qual_all[MAXP][MAXR + 1];
    int usable_ready[(MAXR + 1) * 4];
    int *usable_pos[(MAXR + 1) * 4][MAXP];
    int usable_len[(MAXR + 1) * 4][MAXP];
    int *usable_before[(MAXR + 1) * 4][MAXP];
    /* canon maps per flags (State.canon_map) */
    int canon_ready[(MAXR + 1) * 4];
    uint8_t canon[(MAXR + 1) * 4][MAXT + 1];
    /* the state */
    uint8_t rows[MAXR][MAXLEN];
    int rlen[MAXR];
    uint8_t hands[MAXP][MAXH + 2];
    int hlen[MAXP];
    int ptr[MAXP];
    int to_move, filled, n_bridges;
    int remaining[MAXT + 2];
    int n_remaining;
    int rem_by_maxrow[MAXR + 1];
    /* the search */
    int64_t nodes, next_check, tt_hits, tt_evictions, pruned[5], pv_hits;
    int best_progress;
    Move *path;
    int depth, path_cap;
    Move *best_line;
    int best_len;
    Move *win_line;
    int win_len, have_win;
    Move *stack;
    size_t stack_len, stack_cap;
    XT tt;      /* the exact transposition table: packed key -> lower bound (cost to go) */
    KeyShape ks; /* the packing's field widths (Core_init) */
    int64_t expansions; /* DFS nodes whose moves were generated (past the table and bounds) */
    int track_expanded; /* benchmarks: keep the distinct expanded keys (track_expansions) */
    XT expanded;
    int64_t distinct_expanded;
    PVEntry *pv;
    size_t pv_cap, pv_count;
    XT seen; /* the furthest-line search's exact seen-set of state keys */
    int64_t seen_cap;
    PyObject *check_cb;
    int spent0; /* State.spent0: cards out before the search's start */
    Move *beam_win;
    int beam_win_len;
    PyObject *beam_best;
    int beam_best_progress;
} Core;

static PyObject *StopError = NULL; /* solver.state.Stop, given by the Python side */

/* ---- state helpers -------------------------------------------------------------------- */

static void hand_remove(uint8_t *hand, int *len, int c) { rc_hand_remove(hand, len, c); }

static void hand_insert(uint8_t *hand, int *len, int c) { rc_hand_insert(hand, len, c); }

static int draw(Core *s, int p) {
    int i = s->ptr[p];
    s->ptr[p] = rc_draw(s->hands[p], &s->hlen[p], s->hand_size, s->deck[p], i, s->decklen[p]);
    return s->ptr[p] - i;
}

static void undraw(Core *s, int p, int n) {
    if (!n) return;
    int i = s->ptr[p];
    for (int j = i - n; j < i; j++) hand_remove(s->hands[p], &s->hlen[p], s->deck[p][j]);
    s->ptr[p] = i - n;
}

typedef struct {
    int p, drawn, replaced;
} Undo;

static Undo apply_move(Core *s, const Move *mv) {
    int p = s->to_move;
    uint8_t *hand = s->hands[p];
    int *hl = &s->hlen[p];
    int replaced = -1;
    for (int i = 0; i < mv->nd; i++) {
        int c = mv->disc[i];
        hand_remove(hand, hl, c);
        s->remaining[c]--;
        s->rem_by_maxrow[s->maxrow[c]]--;
    }
    s->n_remaining -= mv->nd;
    if (mv->kind != M_DISCARD) {
        int card = mv->card;
        hand_remove(hand, hl, card);
        s->remaining[card]--;
        s->rem_by_maxrow[s->maxrow[card]]--;
        s->n_remaining--;
        if (mv->kind == M_SUMMIT) {
            s->filled++;
        } else {
            int taken = rc_place(&s->rows[0][0], MAXLEN, s->rlen, mv->kind, card, mv->r, mv->s, mv->r2);
            if (mv->kind == M_PLACE) {
                s->filled++;
                if (card == s->bridge) s->n_bridges++;
            } else if (mv->kind == M_BRIDGE_REPLACE) {
                s->n_bridges--;
            } else {
                replaced = taken;
                s->filled++;
            }
        }
    }
    Undo u;
    u.p = p;
    u.drawn = draw(s, p);
    u.replaced = replaced;
    s->to_move = (p + 1) % s->P;
    return u;
}

static void undo_move(Core *s, const Move *mv, Undo u) {
    int p = u.p;
    s->to_move = p;
    undraw(s, p, u.drawn);
    uint8_t *hand = s->hands[p];
    int *hl = &s->hlen[p];
    if (mv->kind != M_DISCARD) {
        int card = mv->card;
        hand_insert(hand, hl, card);
        s->remaining[card]++;
        s->rem_by_maxrow[s->maxrow[card]]++;
        s->n_remaining++;
        if (mv->kind == M_SUMMIT) {
            s->filled--;
        } else {
            rc_unplace(&s->rows[0][0], MAXLEN, s->rlen, mv->kind, mv->r, mv->s, mv->r2,
                       mv->kind == M_CAMPFIRE ? u.replaced : s->bridge);
            if (mv->kind == M_PLACE) {
                s->filled--;
                if (card == s->bridge) s->n_bridges--;
            } else if (mv->kind == M_BRIDGE_REPLACE) {
                s->n_bridges++;
            } else {
                s->filled--;
            }
        }
    }
    for (int i = 0; i < mv->nd; i++) {
        int c = mv->disc[i];
        hand_insert(hand, hl, c);
        s->remaining[c]++;
        s->rem_by_maxrow[s->maxrow[c]]++;
    }
    s->n_remaining += mv->nd;
}

typedef RCPlacement Placement;

/* State.placements: legal placements of player p (solver/rules_core.h); writes up to outcap
 * of them to out and returns how many there are */
static int placements(Core *s, int p, Placement *out, int outcap) {
    return rc_placements(&s->rules, &s->rows[0][0], MAXLEN, s->rlen, s->filled > s->slots_below_peak,
                         s->n_bridges, s->hands[p], s->hlen[p], out, outcap, 0);
}

/* ---- dead cards and keys ---------------------------------------------------------- */

static int dead_flags(Core *s) {
    int k = 0;
    for (int r = 0; r < s->R; r++) {
        int full = s->rlen[r] == s->rowlen[r];
        int nob = 1;
        if (full)
            for (int i = 0; i < s->rlen[r]; i++)
                if (s->rows[r][i] == s->bridge) {
                    nob = 0;
                    break;
                }
        if (full && nob)
            k = r + 1;
        else
            break;
    }
    int camp = 1;
    for (int r = 1; r < s->R; r++)
        if (s->rlen[r] != s->rowlen[r]) {
            camp = 0;
            break;
        }
    int br = 1;
    for (int r = 0; r < s->R; r++)
        if (s->rlen[r] < s->rowlen[r] - 1) {
            br = 0;
            break;
        }
    return (k * 2 + camp) * 2 + br;
}

static const uint8_t *canon_map(Core *s, int flags) {
    if (!s->canon_ready[flags]) {
        int k = flags / 4, camp = (flags / 2) & 1, br = flags & 1;
        for (int c = 0; c < s->nt; c++) {
            int kd = s->kind[c], dead = 0;
            if (kd == K_ASCENT)
                dead = s->maxrow[c] <= k;
            else if (kd == K_CAMPFIRE)
                dead = camp;
            else if (kd == K_BRIDGE)
                dead = br;
            s->canon[flags][c] = (uint8_t)(dead ? s->nt : c);
        }
        s->canon_ready[flags] = 1;
    }
    return s->canon[flags];
}

/* State.canonical_hand into out; returns its length */
static int canonical_hand(Core *s, const uint8_t *hand, int hl, int flags, uint8_t *out) {
    const uint8_t *cm = canon_map(s, flags);
    int nl = 0;
    for (int i = 0; i < hl; i++)
        if (cm[hand[i]] == hand[i]) out[nl++] = hand[i];
    int nd = hl - nl;
    while (nl >= 2 && out[nl - 1] == s->summit && out[nl - 2] == s->summit) {
        nl--;
        nd++;
    }
    for (int i = 0; i < nd; i++) out[nl++] = (uint8_t)s->nt;
    return nl;
}

/* State.extend_with_hands: each hand (canonical under switch dominance), 254, the deck
   pointer in two bytes, written at buf + n; returns the new length */
static size_t key_hands(Core *s, int flags, uint8_t *buf, size_t n) {
    for (int p = 0; p < s->P; p++) {
        if (s->sw_dominance) {
            n += (size_t)canonical_hand(s, s->hands[p], s->hlen[p], flags, buf + n);
        } else {
            memcpy(buf + n, s->hands[p], (size_t)s->hlen[p]);
            n += (size_t)s->hlen[p];
        }
        buf[n++] = 254;
        buf[n++] = (uint8_t)(s->ptr[p] >> 8);
        buf[n++] = (uint8_t)(s->ptr[p] & 255);
    }
    return n;
}

static size_t build_key(Core *s, int flags, uint8_t *buf) {
    size_t n = 0;
    buf[n++] = (uint8_t)s->to_move;
    for (int r = 0; r < s->R; r++) {
        memcpy(buf + n, s->rows[r], (size_t)s->rlen[r]);
        n += (size_t)s->rlen[r];
        buf[n++] = 254;
    }
    return key_hands(s, flags, buf, n);
}

/* solver.nogood: Nogoods.row_anchor; live: bit per colour of a Campfire still left */
static int row_anchor(Core *s, int r, unsigned live) {
    int anchor = -1;
    const uint8_t *row = s->rows[r];
    for (int i = 0; i < s->rlen[r]; i++) {
        int c = row[i], k = s->kind[c];
        if (k == K_BRIDGE) break;
        if (k == K_ASCENT) {
            if (((live >> (s->colour[c] + 1)) & 1u) && s->maxrow[c] > r + 1) break;
            anchor = i;
        }
    }
    return anchor;
}

/* Nogoods.campfire_colours_left as bits (bit colour+1; bit 0: every colour, colourless) */
static unsigned campfire_live(Core *s) {
    unsigned live = 0;
    for (int c = 0; c < s->nt; c++)
        if (s->kind[c] == K_CAMPFIRE && s->remaining[c] > 0) live |= 1u << (s->colour[c] + 1);
    if (s->colourless && live) live = ~0u;
    return live;
}

/* Nogoods.learned_key: build_key with every row written from its anchor */
static size_t build_learned_key(Core *s, int flags, uint8_t *buf) {
    if (!s->sw_nogood) return build_key(s, flags, buf);
    unsigned live = campfire_live(s);
    size_t n = 0;
    buf[n++] = (uint8_t)s->to_move;
    for (int r = 0; r < s->R; r++) {
        int a = row_anchor(s, r, live);
        if (a > 0) {
            buf[n++] = 253;
            buf[n++] = (uint8_t)s->rlen[r];
            memcpy(buf + n, s->rows[r] + a, (size_t)(s->rlen[r] - a));
            n += (size_t)(s->rlen[r] - a);
        } else {
            memcpy(buf + n, s->rows[r], (size_t)s->rlen[r]);
            n += (size_t)s->rlen[r];
        }
        buf[n++] = 254;
    }
    return key_hands(s, flags, buf, n);
}


static FP state_fp(Core *s, int flags) {
    uint8_t buf[KEYMAX];
    size_t n = build_key(s, flags, buf);
    return fingerprint(buf, n);
}

/* ---- moves in search order ---------------------------------------------------------- */

static int move_cost(Core *s, int kind, int nd) {
    if (s->objective == OBJ_WASTE) return nd + (kind == M_BRIDGE_REPLACE ? 1 : 0);
    if (s->objective == OBJ_TURNS) return 1;
    return 0;
}

static int stack_reserve(Core *s, size_t extra) {
    if (s->stack_len + extra <= s->stack_cap) return 0;
    size_t nc = s->stack_cap ? s->stack_cap : 1024;
    while (nc < s->stack_len + extra) nc *= 2;
    Move *ns = (Move *)realloc(s->stack, nc * sizeof(Move));
    if (!ns) return -1;
    s->stack = ns;
    s->stack_cap = nc;
    return 0;
}

/* State._order_key into mv->okey */
static void order_key(Core *s, Move *mv) {
    const int16_t *fp = s->first_pos[s->to_move];
    int keep_pen = 0;
    for (int i = 0; i < mv->nd; i++) {
        int k = s->kind[mv->disc[i]];
        if (k == K_SUMMIT)
            keep_pen += 6;
        else if (k == K_CAMPFIRE)
            keep_pen += 2;
        else if (k == K_ASCENT)
            keep_pen += 1;
    }
    int h0, h1, h2, n = mv->nd;
    if (mv->kind == M_DISCARD) {
        h0 = 2; h1 = keep_pen; h2 = 0;
    } else if (mv->kind == M_CAMPFIRE) {
        h0 = 0; h1 = n; h2 = -10 - mv->r2;
    } else if (mv->kind == M_BRIDGE_REPLACE) {
        h0 = 0; h1 = n; h2 = -20;
    } else if (s->kind[mv->card] == K_BRIDGE) {
        h0 = 3; h1 = 0; h2 = 0;
    } else {
        h0 = n <= 1 ? 0 : 1; h1 = n * 8 + keep_pen; h2 = -mv->r;
    }
    int16_t *o = mv->okey;
    o[0] = (int16_t)h0; o[1] = (int16_t)h1; o[2] = (int16_t)h2;
    o[3] = mv->kind;
    o[4] = mv->card >= 0 ? fp[mv->card] : -1;
    o[5] = mv->r; o[6] = mv->s; o[7] = mv->r2; o[8] = mv->s2;
    int16_t d[MAXH];
    for (int i = 0; i < n; i++) {
        int16_t x = fp[mv->disc[i]];
        int j = i;
        while (j > 0 && d[j - 1] > x) {
            d[j] = d[j - 1];
            j--;
        }
        d[j] = x;
    }
    for (int i = 0; i < n; i++) o[9 + i] = d[i];
    o[9 + n] = -1;
}

static int cmp_moves(const void *x, const void *y) {
    const int16_t *a = ((const Move *)x)->okey, *b = ((const Move *)y)->okey;
    for (int i = 0; i < NKEY; i++) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
        if (i >= 9 && a[i] == -1) return 0;
    }
    return 0;
}

static int moves_equal(const Move *a, const Move *b) {
    if (a->kind != b->kind || a->card != b->card || a->r != b->r || a->s != b->s ||
        a->r2 != b->r2 || a->s2 != b->s2 || a->nd != b->nd)
        return 0;
    return memcmp(a->disc, b->disc, (size_t)a->nd) == 0;
}

/* distinct k-multisets of cards[0..n) (copies adjacent), each emitted sorted by id with
 * the prefix pre[0..npre) added */
typedef struct {
    Core *s;
    const Move *tmpl;
    const uint8_t *cards;
    int n, k;
    const uint8_t *pre;
    int npre;
    uint8_t acc[MAXH];
    int err;
} MSet;

static void emit(MSet *m, int nacc) {
    if (stack_reserve(m->s, 1)) {
        m->err = 1;
        return;
    }
    Move *mv = &m->s->stack[m->s->stack_len++];
    *mv = *m->tmpl;
    int nd = 0;
    uint8_t d[MAXH];
    for (int i = 0; i < m->npre; i++) d[nd++] = m->pre[i];
    for (int i = 0; i < nacc; i++) d[nd++] = m->acc[i];
    for (int i = 1; i < nd; i++) { /* sort by id */
        uint8_t x = d[i];
        int j = i;
        while (j > 0 && d[j - 1] > x) {
            d[j] = d[j - 1];
            j--;
        }
        d[j] = x;
    }
    mv->nd = (int8_t)nd;
    memcpy(mv->disc, d, (size_t)nd);
    order_key(m->s, mv);
}

static void mset_rec(MSet *m, int start, int nacc) {
    if (m->err) return;
    if (nacc == m->k) {
        emit(m, nacc);
        return;
    }
    int prev = -1;
    for (int i = start; i < m->n - (m->k - nacc) + 1; i++) {
        int c = m->cards[i];
        if (c == prev) continue;
        prev = c;
        m->acc[nacc] = (uint8_t)c;
        mset_rec(m, i + 1, nacc + 1);
        if (m->err) return;
    }
}

/* State.discard_sets: push one move per way to pay (template tmpl), returns -1 on no memory */
static int push_discard_sets(Core *s, const uint8_t *cards_in, int n, int k, int flags,
                             const Move *tmpl) {
    if (k == 0) {
        if (stack_reserve(s, 1)) return -1;
        Move *mv = &s->stack[s->stack_len++];
        *mv = *tmpl;
        mv->nd = 0;
        order_key(s, mv);
        return 0;
    }
    if (k > n) return 0;
    const int16_t *fp = s->first_pos[s->to_move];
    uint8_t cards[MAXH + 2];
    /* stable sort by first position */
    for (int i = 0; i < n; i++) {
        uint8_t x = cards_in[i];
        int j = i;
        while (j > 0 && fp[cards[j - 1]] > fp[x]) {
            cards[j] = cards[j - 1];
            j--;
        }
        cards[j] = x;
    }
    MSet m;
    m.s = s;
    m.tmpl = tmpl;
    m.err = 0;
    if (s->sw_dominance) {
        const uint8_t *cm = canon_map(s, flags);
        uint8_t dead[MAXH + 2], live[MAXH + 2];
        int nd = 0, nl = 0, nsum = 0;
        for (int i = 0; i < n; i++)
            if (cm[cards[i]] != cards[i]) dead[nd++] = cards[i];
        for (int i = 0; i < n; i++)
            if (cards[i] == s->summit) {
                if (nsum++ > 0) dead[nd++] = cards[i];
            }
        if (nd >= k) {
            m.cards = NULL;
            m.n = 0;
            m.k = 0;
            m.pre = dead;
            m.npre = k;
            emit(&m, 0);
            return m.err ? -1 : 0;
        }
        /* live = cards minus the dead ones (first occurrences) */
        int used[MAXH + 2] = {0};
        for (int i = 0; i < nd; i++)
            for (int j = 0; j < n; j++)
                if (!used[j] && cards[j] == dead[i]) {
                    used[j] = 1;
                    break;
                }
        for (int j = 0; j < n; j++)
            if (!used[j]) live[nl++] = cards[j];
        m.cards = live;
        m.n = nl;
        m.k = k - nd;
        m.pre = dead;
        m.npre = nd;
        mset_rec(&m, 0, 0);
        return m.err ? -1 : 0;
    }
    m.cards = cards;
    m.n = n;
    m.k = k;
    m.pre = NULL;
    m.npre = 0;
    mset_rec(&m, 0, 0);
    return m.err ? -1 : 0;
}

/* State.children onto the move stack; returns the number pushed or -1 (no memory) */
static int gen_children(Core *s, int flags) {
    int p = s->to_move;
    const uint8_t *hand = s->hands[p];
    int hl = s->hlen[p];
    Placement pls[1024];
    int np = placements(s, p, pls, 1024);
    Placement *pp = pls;
    Placement *big = NULL;
    if (np > 1024) {
        big = (Placement *)malloc((size_t)np * sizeof(Placement));
        if (!big) return -1;
        placements(s, p, big, np);
        pp = big;
    }
    size_t base = s->stack_len;
    for (int i = 0; i < np; i++) {
        Placement *pl = &pp[i];
        Move t;
        memset(&t, 0, sizeof t);
        t.kind = pl->kind;
        t.card = pl->card;
        t.r = pl->r;
        t.s = pl->s;
        t.r2 = pl->r2;
        t.s2 = pl->s2;
        if (pl->kind == M_SUMMIT) {
            s->stack_len = base;
            if (stack_reserve(s, 1)) {
                free(big);
                return -1;
            }
            Move *mv = &s->stack[s->stack_len++];
            *mv = t;
            mv->nd = 0;
            order_key(s, mv);
            free(big);
            return 1;
        }
        uint8_t rest[MAXH + 2];
        int nr = 0, skipped = 0;
        for (int j = 0; j < hl; j++) {
            if (!skipped && hand[j] == pl->card) {
                skipped = 1;
                continue;
            }
            rest[nr++] = hand[j];
        }
        if (push_discard_sets(s, rest, nr, pl->cost, flags, &t)) {
            free(big);
            return -1;
        }
    }
    free(big);
    if (hl >= 2) {
        Move t;
        memset(&t, 0, sizeof t);
        t.kind = M_DISCARD;
        t.card = -1;
        if (push_discard_sets(s, hand, hl, 2, flags, &t)) return -1;
    }
    int count = (int)(s->stack_len - base);
    if (count > 1) qsort(s->stack + base, (size_t)count, sizeof(Move), cmp_moves);
    return count;
}

/* ---- bounds (solver/bounds.py, solver/windows.py) -------------------------------------- */

static int prepare_solo(Core *s) {
    if (s->solo_ready) return 0;
    const uint8_t *deck = s->deck[0];
    int n = s->decklen[0];
    for (int h = 1; h <= s->R; h++) {
        s->qual_pos[h] = (int *)malloc(sizeof(int) * (size_t)(n + 1));
        s->qual_before[h] = (int *)malloc(sizeof(int) * (size_t)(n + 1));
        if (!s->qual_pos[h] || !s->qual_before[h]) return -1;
        int k = 0;
        s->qual_before[h][0] = 0;
        for (int i = 0; i < n; i++) {
            int q = s->maxrow[deck[i]] >= h;
            if (q) s->qual_pos[h][k++] = i;
            s->qual_before[h][i + 1] = s->qual_before[h][i] + q;
        }
        s->qual_len[h] = k;
    }
    s->next_summit = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!s->next_summit) return -1;
    s->next_summit[n] = INF;
    for (int i = n - 1; i >= 0; i--) s->next_summit[i] = deck[i] == s->summit ? i : s->next_summit[i + 1];
    s->solo_ready = 1;
    return 0;
}

static int prepare_pw(Core *s) {
    if (s->pw_ready) return 0;
    for (int q = 0; q < s->P; q++) {
        const uint8_t *deck = s->deck[q];
        int n = s->decklen[q];
        s->nxt_all[q] = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
        if (!s->nxt_all[q]) return -1;
        s->nxt_all[q][n] = INF;
        for (int i = n - 1; i >= 0; i--) s->nxt_all[q][i] = deck[i] == s->summit ? i : s->nxt_all[q][i + 1];
        for (int h = 1; h <= s->R; h++) {
            int *b = (int *)malloc(sizeof(int) * (size_t)(n + 1));
            if (!b) return -1;
            b[0] = 0;
            for (int i = 0; i < n; i++) b[i + 1] = b[i] + (s->maxrow[deck[i]] >= h);
            s->qual_all[q][h] = b;
        }
    }
    s->pw_ready = 1;
    return 0;
}

static int prepare_usable(Core *s, int flags) {
    if (s->usable_ready[flags]) return 0;
    const uint8_t *cm = canon_map(s, flags);
    for (int q = 0; q < s->P; q++) {
        const uint8_t *deck = s->deck[q];
        int n = s->decklen[q];
        int *pos = (int *)malloc(sizeof(int) * (size_t)(n + 1));
        int *before = (int *)malloc(sizeof(int) * (size_t)(n + 1));
        if (!pos || !before) return -1;
        int k = 0;
        before[0] = 0;
        for (int i = 0; i < n; i++) {
            int u = cm[deck[i]] == deck[i];
            if (u) pos[k++] = i;
            before[i + 1] = before[i] + u;
        }
        s->usable_pos[flags][q] = pos;
        s->usable_before[flags][q] = before;
        s->usable_len[flags][q] = k;
    }
    s->usable_ready[flags] = 1;
    return 0;
}

static int row_bridges(Core *s, int r) {
    int c = 0;
    for (int i = 0; i < s->rlen[r]; i++) c += s->rows[r][i] == s->bridge;
    return c;
}

/* PlayerWindows.players_window_bound; -2 on no memory */
static int64_t players_window_bound(Core *s, int64_t budget) {
    int P = s->P, R = s->R;
    int S = s->slots_total - s->filled;
    int nb = s->n_bridges;
    int N0 = S + nb;
    int flags = dead_flags(s);
    const uint8_t *cm = canon_map(s, flags);
    if (prepare_pw(s) || prepare_usable(s, flags)) return -2;
    int hs = s->hand_size, to_move = s->to_move;
    int need[MAXR + 2];
    memset(need, 0, sizeof need);
    int acc = 0;
    for (int h = R; h >= 1; h--) {
        acc += s->rowlen[h - 1] - s->rlen[h - 1];
        if (nb) acc += row_bridges(s, h - 1);
        need[h] = acc;
    }
    int hu[MAXP], hdef[MAXP], left[MAXP], hq[MAXP][MAXR + 1];
    int64_t srq[MAXP];
    for (int q = 0; q < P; q++) {
        const uint8_t *hand = s->hands[q];
        int hl = s->hlen[q], u = 0, hass = 0;
        for (int i = 0; i < hl; i++) {
            if (cm[hand[i]] == hand[i]) u++;
            if (hand[i] == s->summit) hass = 1;
        }
        hu[q] = u;
        int d = hs - hl;
        hdef[q] = d > 0 ? d : 0;
        left[q] = hl + s->decklen[q] - s->ptr[q];
        hq[q][0] = 0;
        for (int h = 1; h <= R; h++) {
            int c = 0;
            for (int i = 0; i < hl; i++) c += s->maxrow[hand[i]] >= h;
            hq[q][h] = c;
        }
        if (hass)
            srq[q] = 1;
        else {
            int64_t ns = s->nxt_all[q][s->ptr[q]];
            srq[q] = ns >= INF ? INF : ns - s->ptr[q] + 2 - hdef[q];
        }
    }
    int64_t best = INF;
    int e = 0;
    while (N0 + e <= s->n_remaining) {
        if (nb + e >= best || nb + e > budget) break;
        int n = N0 + e;
        int qlast = (to_move + n - 1) % P;
        int64_t total = 0;
        int64_t outs[MAXP];
        int ok = 1;
        for (int q = 0; q < P; q++) {
            int t = (n - ((q - to_move) % P + P) % P + P - 1) / P;
            int64_t o = t;
            int m = t - e;
            if (m > hu[q]) {
                int *pos = s->usable_pos[flags][q];
                int *before = s->usable_before[flags][q];
                int idx = before[s->ptr[q]] + (m - hu[q]) - 1;
                if (idx >= s->usable_len[flags][q]) {
                    ok = 0;
                    break;
                }
                int64_t r = pos[idx] - s->ptr[q] + 2 - hdef[q];
                if (r > o) o = r;
            }
            if (q == qlast && srq[q] > o) o = srq[q];
            if (o > left[q]) {
                ok = 0;
                break;
            }
            outs[q] = o;
            total += o;
        }
        if (ok) {
            int64_t extra = 0;
            for (int h = 1; h <= R; h++) {
                int64_t have = 0;
                for (int q = 0; q < P; q++) {
                    int p0 = s->ptr[q];
                    int64_t w = outs[q] - 1 + hdef[q];
                    int64_t end = w > 0 ? (p0 + w < s->decklen[q] ? p0 + w : s->decklen[q]) : p0;
                    const int *qb = s->qual_all[q][h];
                    have += hq[q][h] + qb[end] - qb[p0];
                }
                int64_t sh = need[h] - have;
                if (sh > extra) extra = sh;
            }
            int64_t lb = total + extra - S;
            if (lb < best) best = lb;
        }
        e++;
    }
    return best;
}

/* PlayerWindows.players_turns_bound; -2 on no memory */
static int64_t players_turns_bound(Core *s, int64_t budget) {
    int P = s->P;
    int S = s->slots_total - s->filled;
    int nb = s->n_bridges;
    int N0 = S + nb;
    int flags = dead_flags(s);
    const uint8_t *cm = canon_map(s, flags);
    if (prepare_pw(s) || prepare_usable(s, flags)) return -2;
    int left[MAXP], live[MAXP], has_summit[MAXP];
    for (int q = 0; q < P; q++) {
        const uint8_t *hand = s->hands[q];
        int hl = s->hlen[q], u = 0, hass = 0;
        for (int i = 0; i < hl; i++) {
            if (cm[hand[i]] == hand[i]) u++;
            if (hand[i] == s->summit) hass = 1;
        }
        left[q] = hl + s->decklen[q] - s->ptr[q];
        live[q] = u + s->usable_len[flags][q] - s->usable_before[flags][q][s->ptr[q]];
        has_summit[q] = hass || s->nxt_all[q][s->ptr[q]] < INF;
    }
    int64_t n = N0;
    while (n <= s->n_remaining && n <= budget) {
        int64_t e = n - N0;
        if (has_summit[(s->to_move + n - 1) % P]) {
            int ok = 1;
            for (int q = 0; q < P; q++) {
                int64_t t = (n - ((q - s->to_move) % P + P) % P + P - 1) / P;
                if (t > left[q] || t - e > live[q]) {
                    ok = 0;
                    break;
                }
            }
            if (ok) return n;
        }
        n++;
    }
    return budget >= INF ? INF : budget + 1;
}

/* Bounds._reference_options: the reference values the walk from index i may give (-1: none);
   returns how many were written to out (at most MAXLEN + 1) */
static int reference_options(Core *s, const uint8_t *row, int n, int i, int step, int r, int camp,
                             int *out) {
    int k = 0;
    while (i >= 0 && i < n) {
        int c = row[i], kd = s->kind[c];
        if (kd == K_CAMPFIRE) {
            i += step;
            continue;
        }
        if (kd != K_ASCENT) {
            out[k++] = -1;
            return k;
        }
        out[k++] = s->value[c];
        if (((camp >> s->colour[c]) & 1) && s->maxrow[c] > r + 1) {
            i += step;
            continue;
        }
        return k;
    }
    out[k++] = -1;
    return k;
}

/* Bounds.bridge_costs: the least replacement costs of the Bridges standing (INF: never) */
static int64_t bridge_costs(Core *s) {
    int camp = 0;
    for (int c = 0; c < s->nt; c++)
        if (s->kind[c] == K_CAMPFIRE && s->remaining[c]) camp |= 1 << s->colour[c];
    if (s->colourless && camp) camp = ~0; /* solver.abstraction: a Campfire moves any card */
    int most = s->hand_size - 1;
    int64_t total = 0;
    int left[MAXLEN + 2], right[MAXLEN + 2];
    for (int r = 0; r < s->R; r++) {
        const uint8_t *row = s->rows[r];
        int n = s->rlen[r];
        for (int j = 0; j < n; j++) {
            if (row[j] != s->bridge) continue;
            int nl = reference_options(s, row, n, j - 1, -1, r, camp, left);
            int nr = 1;
            if (s->bridge_max)
                nr = reference_options(s, row, n, j + 1, 1, r, camp, right);
            else
                right[0] = -1;
            int lc = j > 0 && !s->colourless ? s->colour[row[j - 1]] : -9;
            int rc = j + 1 < n && !s->colourless ? s->colour[row[j + 1]] : -9;
            int64_t best = INF;
            for (int c = 0; c < s->nt; c++) {
                if (s->kind[c] != K_ASCENT || !s->remaining[c] || s->maxrow[c] < r + 1) continue;
                int col = s->colour[c];
                if (col == lc || col == rc) continue;
                int v = s->value[c];
                int a = INT32_MAX, w = INT32_MAX;
                for (int x = 0; x < nl; x++) {
                    int d = left[x] >= 0 ? abs(v - left[x]) : 0;
                    if (d < a) a = d;
                }
                for (int x = 0; x < nr; x++) {
                    int d = right[x] >= 0 ? abs(v - right[x]) : 0;
                    if (d < w) w = d;
                }
                int cost = a > w ? a : w;
                if (cost < best) best = cost;
            }
            if (best > most) return INF;
            total += best;
        }
    }
    return total;
}

/* Bounds.waste_lower_bound; -2 on no memory */
static int64_t waste_lower_bound(Core *s, int64_t budget) {
    int nb = s->n_bridges;
    int64_t floor = nb;
    if (nb && s->sw_bridge_costs) {
        int64_t extra = bridge_costs(s);
        if (extra >= INF) return INF;
        floor = nb + extra;
    }
    if (s->P != 1) {
        int64_t base = s->sw_window_players ? players_window_bound(s, budget) : nb;
        if (base == -2) return -2;
        return base > floor ? base : floor;
    }
    if (prepare_solo(s)) return -2;
    const uint8_t *hand = s->hands[0];
    int hl = s->hlen[0];
    int ptr = s->ptr[0];
    int64_t k = 0;
    int hass = 0;
    for (int i = 0; i < hl; i++)
        if (hand[i] == s->summit) hass = 1;
    if (!hass) {
        int64_t ns = s->next_summit[ptr];
        if (ns >= INF) return INF;
        k = ns - ptr + 1;
    }
    int need = 0;
    for (int h = s->R; h >= 1; h--) {
        need += s->rowlen[h - 1] - s->rlen[h - 1];
        if (nb) need += row_bridges(s, h - 1);
        int m = need;
        for (int i = 0; i < hl; i++)
            if (s->maxrow[hand[i]] >= h) m--;
        if (m > 0) {
            int idx = s->qual_before[h][ptr] + m - 1;
            if (idx >= s->qual_len[h]) return INF;
            int64_t kk = s->qual_pos[h][idx] - ptr + 1;
            if (kk > k) k = kk;
        }
    }
    if (k == 0) return floor;
    int64_t e = s->slots_below_peak - s->filled + nb + 1;
    int64_t x = k + 1 - e;
    int64_t lb = nb + (x > 0 ? x : 0);
    return lb > floor ? lb : floor;
}

/* Bounds.bound_fails: 1 cut, 0 not, -2 no memory */
static int bound_fails(Core *s, int64_t budget) {
    if (s->remaining[s->summit] == 0) {
        s->pruned[PR_SUMMIT]++;
        return 1;
    }
    int need_total = s->slots_below_peak - s->filled + s->n_bridges;
    if (s->n_remaining < need_total + 1) {
        s->pruned[PR_CARDS]++;
        return 1;
    }
    if (s->P > 1) {
        int n = need_total + 1, P = s->P;
        for (int q = 0; q < P; q++) {
            int turns = (n - ((q - s->to_move) % P + P) % P + P - 1) / P;
            if (s->hlen[q] + s->decklen[q] - s->ptr[q] < turns) {
                s->pruned[PR_CARDS]++;
                return 1;
            }
        }
    }
    if (s->objective == OBJ_TURNS && need_total + 1 > budget) {
        s->pruned[PR_OBJECTIVE]++;
        return 1;
    }
    if (s->objective == OBJ_TURNS && s->P > 1 && s->sw_window_players && budget < INF) {
        int64_t b = players_turns_bound(s, budget);
        if (b == -2) return -2;
        if (b > budget) {
            s->pruned[PR_OBJECTIVE]++;
            return 1;
        }
    }
    int need = 0, have = 0, nb = s->n_bridges;
    for (int h = s->R; h >= 1; h--) {
        need += s->rowlen[h - 1] - s->rlen[h - 1];
        if (nb) need += row_bridges(s, h - 1);
        have += s->rem_by_maxrow[h];
        if (have < need) {
            s->pruned[PR_HEIGHT]++;
            return 1;
        }
    }
    /* the waste bound against the objective's budget (waste) and, in every objective,
       against the cards to spare */
    int64_t waste_b = (s->objective == OBJ_WASTE && budget < INF) ? budget : INF;
    int64_t spare = s->sw_budget ? (int64_t)s->n_remaining - (s->slots_total - s->filled) : INF;
    int64_t cap = waste_b < spare ? waste_b : spare;
    if (cap < INF) {
        int64_t b = waste_lower_bound(s, cap);
        if (b == -2) return -2;
        if (b > cap) {
            s->pruned[cap == waste_b ? PR_OBJECTIVE : PR_SPARE]++;
            return 1;
        }
    }
    return 0;
}

/* ---- the searches -------------------------------------------------------------------- */

#define R_STOP (-1)
#define R_NOMEM (-2)

static int check(Core *s) {
    if (PyErr_CheckSignals()) return R_STOP;
    PyObject *r = PyObject_CallFunction(s->check_cb, "L", (long long)s->nodes);
    if (!r) return R_STOP;
    long long nc = PyLong_AsLongLong(r);
    Py_DECREF(r);
    if (nc == -1 && PyErr_Occurred()) return R_STOP;
    s->next_check = nc;
    return 0;
}

static int path_push(Core *s, const Move *mv) {
    if (s->depth >= s->path_cap) {
        int nc = s->path_cap ? s->path_cap * 2 : 256;
        /* path_cap grows only once all three arrays hold nc moves: after a failed
           realloc every array still holds at least path_cap */
        Move *np = (Move *)realloc(s->path, sizeof(Move) * (size_t)nc);
        if (!np) return -1;
        s->path = np;
        Move *nb = (Move *)realloc(s->best_line, sizeof(Move) * (size_t)nc);
        if (!nb) return -1;
        s->best_line = nb;
        Move *nw = (Move *)realloc(s->win_line, sizeof(Move) * (size_t)nc);
        if (!nw) return -1;
        s->win_line = nw;
        s->path_cap = nc;
    }
    s->path[s->depth++] = *mv;
    return 0;
}

static int ensure_lines(Core *s) {
    if (s->path_cap) return 0;
    if (!s->path) s->path = (Move *)malloc(sizeof(Move) * 256);
    if (!s->best_line) s->best_line = (Move *)malloc(sizeof(Move) * 256);
    if (!s->win_line) s->win_line = (Move *)malloc(sizeof(Move) * 256);
    if (!(s->path && s->best_line && s->win_line)) return -1;
    s->path_cap = 256; /* only once all three hold 256 moves */
    return 0;
}

/* Search._enter_node */
static int enter_node(Core *s) {
    s->nodes++;
    if (s->nodes >= s->next_check && check(s)) return R_STOP;
    if (s->filled > s->best_progress) {
        s->best_progress = s->filled;
        memcpy(s->best_line, s->path, sizeof(Move) * (size_t)s->depth);
        s->best_len = s->depth;
    }
    return 0;
}

static const Move *pv_get(Core *s, FP f) {
    if (!s->pv_count) return NULL;
    size_t m = s->pv_cap - 1, i = (size_t)f.a & m;
    while (s->pv[i].used) {
        if (s->pv[i].a == f.a && s->pv[i].b == f.b) return &s->pv[i].mv;
        i = (i + 1) & m;
    }
    return NULL;
}

/* Search.dfs: 1 win within budget, 0 none, R_STOP, R_NOMEM */
static int dfs(Core *s, int64_t budget) {
    if (enter_node(s)) return R_STOP;
    if (s->filled == s->slots_total) {
        memcpy(s->win_line, s->path, sizeof(Move) * (size_t)s->depth);
        s->win_len = s->depth;
        s->have_win = 1;
        return 1;
    }
    int flags = dead_flags(s);
    uint8_t kraw[KEYMAX], kpack[KEYMAX];
    size_t kraw_n = 0;
    XKey key;
    int have_key = 0;
    if (s->sw_transposition) {
        kraw_n = build_learned_key(s, flags, kraw);
        key = make_xkey(&s->ks, kraw, kraw_n, kpack);
        have_key = 1;
        XEntry *x = xt_find(&s->tt, &key);
        if (x && (x->val > budget || x->val >= INF)) { /* INF: no win at all (objective none) */
            s->tt_hits++;
            return 0;
        }
    }
    if (s->sw_bounds) {
        int b = bound_fails(s, budget);
        if (b == -2) return R_NOMEM;
        if (b) return 0;
    }
    size_t base = s->stack_len;
    int n = gen_children(s, flags);
    if (n < 0) return R_NOMEM;
    s->expansions++;
    if (s->track_expanded && have_key) {
        int a = xt_add(&s->expanded, &key);
        if (a < 0) return R_NOMEM;
        s->distinct_expanded += a;
    }
    if (s->pv_count) {
        FP pkey = (have_key && !s->sw_nogood) ? fingerprint(kraw, kraw_n) : state_fp(s, flags);
        const Move *pm = pv_get(s, pkey);
        if (pm) {
            for (int i = 0; i < n; i++)
                if (moves_equal(&s->stack[base + i], pm)) {
                    if (i > 0) {
                        Move t = s->stack[base + i];
                        memmove(&s->stack[base + 1], &s->stack[base], sizeof(Move) * (size_t)i);
                        s->stack[base] = t;
                        s->pv_hits++;
                    }
                    break;
                }
        }
    }
    int last_summits = s->sw_bounds ? s->remaining[s->summit] : 0;
    for (int i = 0; i < n; i++) {
        Move mv = s->stack[base + i];
        int64_t c = move_cost(s, mv.kind, mv.nd);
        if (c > budget) continue;
        if (last_summits) {
            int ns = 0;
            for (int j = 0; j < mv.nd; j++) ns += mv.disc[j] == s->summit;
            if (ns == last_summits) { /* it would discard every Summit left (R10): cut */
                s->pruned[PR_SUMMIT]++;
                continue;
            }
        }
        Undo u = apply_move(s, &mv);
        if (path_push(s, &mv)) return R_NOMEM;
        int ok = dfs(s, budget - c);
        s->depth--;
        if (ok < 0) return ok;
        undo_move(s, &mv, u);
        if (ok) {
            s->stack_len = base;
            return 1;
        }
    }
    s->stack_len = base;
    if (have_key) {
        /* the bound learned: no win within budget from here (clamped to 32 bits: a smaller
           stored bound is a weaker one, still true) */
        int64_t v = s->objective == OBJ_NONE ? INF : budget + 1;
        int32_t v32 = v > INT32_MAX ? INT32_MAX : (int32_t)v;
        /* one probe: raise the key's entry (only where budget + 1 is above it, as the
           reference), else add it */
        int64_t rep0 = s->tt.replaced;
        if (budget + 1 > 0 && xt_store_as(&s->tt, &key, v32, budget + 1)) return R_NOMEM;
        s->tt_evictions += s->tt.replaced - rep0;
    }
    return 0;
}

/* Search.furthest's rec: 0 done, R_STOP (a limit or a full seen-set), R_NOMEM */
static int furthest_rec(Core *s) {
    if (enter_node(s)) return R_STOP;
    int total = s->slots_total - 1; /* a proven loss: no line fills every slot */
    int left = total - s->filled;
    int reach = s->filled + (left < s->n_remaining ? left : s->n_remaining);
    if (reach <= s->best_progress) return 0;
    int flags = dead_flags(s);
    uint8_t kraw[KEYMAX], kpack[KEYMAX];
    size_t kraw_n = build_key(s, flags, kraw);
    XKey key = make_xkey(&s->ks, kraw, kraw_n, kpack);
    if (xt_find(&s->seen, &key)) return 0;
    if ((int64_t)s->seen.count >= s->seen_cap) {
        PyErr_SetNone(StopError);
        return R_STOP;
    }
    if (xt_add(&s->seen, &key) < 0) return R_NOMEM;
    size_t base = s->stack_len;
    int n = gen_children(s, flags);
    if (n < 0) return R_NOMEM;
    for (int i = 0; i < n; i++) {
        Move mv = s->stack[base + i];
        Undo u = apply_move(s, &mv);
        if (path_push(s, &mv)) return R_NOMEM;
        int r = furthest_rec(s);
        s->depth--;
        if (r < 0) return r;
        undo_move(s, &mv, u);
    }
    s->stack_len = base;
    return 0;
}

/* ---- the beam (solver/beam.py: Beam.beam) ------------------------------------------- */

typedef struct {
    uint8_t rows[MAXR][MAXLEN];
    uint8_t rlen[MAXR];
    uint8_t hands[MAXP][MAXH];
    uint8_t hlen[MAXP];
    int16_t ptr[MAXP];
    uint8_t to_move;
} Snap;

typedef struct {
    int64_t score0, score1; /* the score tuple */
    Snap snap;
    int parent; /* arena index of the line it extends (-1: the start) */
    Move mv;
    FP key;
} BeamEntry;

typedef struct {
    int parent;
    Move mv;
} ArenaNode;

typedef struct {
    int beam_spent, beam_real, beam_bridge, beam_slack, beam_slack_floor, keep;
} BeamWeights;

static void take_snap(Core *s, Snap *x) {
    memset(x, 0, sizeof *x);
    for (int r = 0; r < s->R; r++) {
        x->rlen[r] = (uint8_t)s->rlen[r];
        memcpy(x->rows[r], s->rows[r], (size_t)s->rlen[r]);
    }
    for (int q = 0; q < s->P; q++) {
        x->hlen[q] = (uint8_t)s->hlen[q];
        memcpy(x->hands[q], s->hands[q], (size_t)s->hlen[q]);
        x->ptr[q] = (int16_t)s->ptr[q];
    }
    x->to_move = (uint8_t)s->to_move;
}

/* State.restore: filled counts the rows only (never the peak) */
static void put_snap(Core *s, const Snap *x) {
    s->filled = 0;
    s->n_bridges = 0;
    for (int r = 0; r < s->R; r++) {
        s->rlen[r] = x->rlen[r];
        memcpy(s->rows[r], x->rows[r], x->rlen[r]);
        s->filled += x->rlen[r];
        for (int i = 0; i < x->rlen[r]; i++) s->n_bridges += x->rows[r][i] == s->bridge;
    }
    memset(s->remaining, 0, sizeof s->remaining);
    s->n_remaining = 0;
    for (int q = 0; q < s->P; q++) {
        s->hlen[q] = x->hlen[q];
        memcpy(s->hands[q], x->hands[q], x->hlen[q]);
        s->ptr[q] = x->ptr[q];
        for (int i = 0; i < s->hlen[q]; i++) s->remaining[s->hands[q][i]]++;
        for (int i = s->ptr[q]; i < s->decklen[q]; i++) s->remaining[s->deck[q][i]]++;
        s->n_remaining += s->hlen[q] + s->decklen[q] - s->ptr[q];
    }
    memset(s->rem_by_maxrow, 0, sizeof s->rem_by_maxrow);
    for (int c = 0; c < s->nt; c++) s->rem_by_maxrow[s->maxrow[c]] += s->remaining[c];
    s->to_move = x->to_move;
}

static int spent(Core *s) {
    int n = 0;
    for (int q = 0; q < s->P; q++) n += s->ptr[q] - s->hlen[q];
    return n - s->filled - s->spent0;
}

static int can_move(Core *s) {
    if (s->hlen[s->to_move] >= 2) return 1;
    Placement pls[64];
    return placements(s, s->to_move, pls, 64) > 0;
}

static int slack_penalty(Core *s, const BeamWeights *w) {
    if (s->P == 1 || !w->beam_slack) return 0;
    int P = s->P;
    int n = s->slots_below_peak - s->filled + s->n_bridges + 1;
    int worst = (int)INF;
    for (int q = 0; q < P; q++) {
        int turns = (n - ((q - s->to_move) % P + P) % P + P - 1) / P;
        int slack = s->hlen[q] + s->decklen[q] - s->ptr[q] - turns;
        if (slack < worst) worst = slack;
    }
    int sh = w->beam_slack_floor - worst;
    return sh > 0 ? w->beam_slack * sh : 0;
}

typedef struct {
    BeamEntry *e;
    size_t n, cap;
    size_t *slot; /* hash: index + 1, 0 empty */
    size_t scap;
} SeenLayer;

static int layer_find_or_add(SeenLayer *L, FP f, size_t *idx) {
    if ((L->n + 1) * 2 > L->scap) {
        size_t nc = L->scap ? L->scap * 2 : 4096;
        size_t *ns = (size_t *)calloc(nc, sizeof(size_t));
        if (!ns) return -1;
        for (size_t i = 0; i < L->n; i++) {
            size_t j = (size_t)L->e[i].key.a & (nc - 1);
            while (ns[j]) j = (j + 1) & (nc - 1);
            ns[j] = i + 1;
        }
        free(L->slot);
        L->slot = ns;
        L->scap = nc;
    }
    size_t m = L->scap - 1, j = (size_t)f.a & m;
    while (L->slot[j]) {
        BeamEntry *x = &L->e[L->slot[j] - 1];
        if (x->key.a == f.a && x->key.b == f.b) {
            *idx = L->slot[j] - 1;
            return 0; /* there already */
        }
        j = (j + 1) & m;
    }
    if (L->n >= L->cap) {
        size_t nc = L->cap ? L->cap * 2 : 1024;
        BeamEntry *ne = (BeamEntry *)realloc(L->e, nc * sizeof(BeamEntry));
        if (!ne) return -1;
        L->e = ne;
        L->cap = nc;
    }
    L->slot[j] = L->n + 1;
    *idx = L->n++;
    return 1;
}

static void layer_reset(SeenLayer *L) {
    L->n = 0;
    if (L->slot) memset(L->slot, 0, L->scap * sizeof(size_t));
}

static void layer_free(SeenLayer *L) {
    free(L->e);
    free(L->slot);
    memset(L, 0, sizeof *L);
}

static const BeamEntry *g_sort_base;
static int cmp_entry_idx(const void *x, const void *y) {
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    const BeamEntry *ea = &g_sort_base[a], *eb = &g_sort_base[b];
    if (ea->score0 != eb->score0) return ea->score0 < eb->score0 ? -1 : 1;
    if (ea->score1 != eb->score1) return ea->score1 < eb->score1 ? -1 : 1;
    return a < b ? -1 : a > b; /* stable: insertion order */
}

typedef struct {
    ArenaNode *a;
    int n, cap;
} Arena;

static int arena_push(Arena *A, int parent, const Move *mv) {
    if (A->n >= A->cap) {
        int nc = A->cap ? A->cap * 2 : 1024;
        ArenaNode *na = (ArenaNode *)realloc(A->a, sizeof(ArenaNode) * (size_t)nc);
        if (!na) return -1;
        A->a = na;
        A->cap = nc;
    }
    A->a[A->n].parent = parent;
    A->a[A->n].mv = *mv;
    return A->n++;
}

/* the line ending at arena node idx, then mv (if given), into out; returns its length */
static int arena_line(Core *s, const Arena *A, int idx, const Move *mv, Move **out) {
    int n = 0;
    for (int i = idx; i >= 0; i = A->a[i].parent) n++;
    int total = n + (mv ? 1 : 0);
    Move *line = (Move *)malloc(sizeof(Move) * (size_t)(total + 1));
    if (!line) return -1;
    int k = n;
    for (int i = idx; i >= 0; i = A->a[i].parent) line[--k] = A->a[i].mv;
    if (mv) line[n] = *mv;
    *out = line;
    (void)s;
    return total;
}

static int set_line(Move **dst, int *dst_len, int *cap_unused, Move *line, int n) {
    (void)cap_unused;
    free(*dst);
    *dst = line;
    *dst_len = n;
    return 0;
}

/* Beam.beam: 1 found, 0 not, R_STOP, R_NOMEM; the best win found so far is in beam_win
 * (also when a limit stops it). */
typedef struct {
    Move *win;
    int win_len, have;
    int64_t cap;
    Move *best;
    int best_len; /* -1: no new furthest line */
} BeamOut;

static int beam_children(Core *s, int flags, int keep, size_t *out_base, int *out_n) {
    size_t base = s->stack_len;
    int n = gen_children(s, flags);
    if (n < 0) return -1;
    if (keep) {
        /* keep, per placement head, the first `keep` ways to pay; keep + 1 discard moves */
        int w = 0;
        for (int i = 0; i < n; i++) {
            Move *mv = &s->stack[base + i];
            int cnt = 0;
            for (int j = 0; j < w; j++) {
                Move *o = &s->stack[base + j];
                if (o->kind == mv->kind && o->card == mv->card && o->r == mv->r && o->s == mv->s &&
                    o->r2 == mv->r2 && o->s2 == mv->s2)
                    cnt++;
            }
            if (cnt < (mv->kind == M_DISCARD ? keep + 1 : keep)) {
                if (w != i) s->stack[base + w] = *mv;
                w++;
            }
        }
        s->stack_len = base + (size_t)w;
        n = w;
    }
    *out_base = base;
    *out_n = n;
    return 0;
}

static int run_beam(Core *s, int width, const BeamWeights *wt, int waste_mode, BeamOut *o) {
    int total = s->slots_total;
    Snap start;
    take_snap(s, &start);
    SeenLayer L;
    memset(&L, 0, sizeof L);
    Arena A;
    memset(&A, 0, sizeof A);
    /* the current layer: snapshots and the arena index of their lines */
    Snap *lay = (Snap *)malloc(sizeof(Snap));
    int *lay_line = (int *)malloc(sizeof(int));
    int nlay = 1, rc = 0;
    if (!lay || !lay_line) {
        rc = R_NOMEM;
        goto done;
    }
    lay[0] = start;
    lay_line[0] = -1;
    while (nlay) {
        layer_reset(&L);
        for (int li = 0; li < nlay; li++) {
            put_snap(s, &lay[li]);
            int flags = dead_flags(s);
            size_t base;
            int n;
            if (beam_children(s, flags, wt->keep, &base, &n)) {
                rc = R_NOMEM;
                goto done;
            }
            for (int i = 0; i < n; i++) {
                Move mv = s->stack[base + i];
                s->nodes++;
                if (s->nodes >= s->next_check && check(s)) {
                    rc = R_STOP;
                    goto done;
                }
                Undo u = apply_move(s, &mv);
                if (s->filled == total) {
                    Move *line;
                    int ln = arena_line(s, &A, lay_line[li], &mv, &line);
                    if (ln < 0) {
                        rc = R_NOMEM;
                        goto done;
                    }
                    int64_t value = 0;
                    for (int k = 0; k < ln; k++) value += move_cost(s, line[k].kind, line[k].nd);
                    if (value < o->cap) {
                        set_line(&o->win, &o->win_len, NULL, line, ln);
                        o->have = 1;
                        o->cap = value;
                        if (!waste_mode) {
                            undo_move(s, &mv, u);
                            rc = 1;
                            goto done;
                        }
                    } else {
                        free(line);
                    }
                    undo_move(s, &mv, u);
                    continue;
                }
                if (s->filled > s->best_progress) {
                    s->best_progress = s->filled;
                    Move *line;
                    int ln = arena_line(s, &A, lay_line[li], &mv, &line);
                    if (ln < 0) {
                        rc = R_NOMEM;
                        goto done;
                    }
                    set_line(&o->best, &o->best_len, NULL, line, ln);
                }
                int sp = spent(s);
                if (waste_mode && sp + s->n_bridges >= o->cap) {
                    undo_move(s, &mv, u);
                    continue;
                }
                int bf = bound_fails(s, INF);
                if (bf == -2) {
                    rc = R_NOMEM;
                    goto done;
                }
                if (!bf && can_move(s)) {
                    int f2 = dead_flags(s);
                    FP key = state_fp(s, f2);
                    size_t idx;
                    int added = layer_find_or_add(&L, key, &idx);
                    if (added < 0) {
                        rc = R_NOMEM;
                        goto done;
                    }
                    if (added) {
                        BeamEntry *e = &L.e[idx];
                        int real = s->filled - s->n_bridges;
                        e->score0 = (int64_t)sp * wt->beam_spent + (int64_t)s->n_bridges * wt->beam_bridge -
                                    (int64_t)real * wt->beam_real + slack_penalty(s, wt);
                        e->score1 = -real;
                        e->key = key;
                        e->parent = lay_line[li];
                        e->mv = mv;
                        take_snap(s, &e->snap);
                    }
                }
                undo_move(s, &mv, u);
            }
            s->stack_len = base;
        }
        /* the `width` best by score, ties in insertion order (a stable sort) */
        size_t *ord = (size_t *)malloc(sizeof(size_t) * (L.n + 1));
        if (!ord) {
            rc = R_NOMEM;
            goto done;
        }
        for (size_t i = 0; i < L.n; i++) ord[i] = i;
        g_sort_base = L.e;
        qsort(ord, L.n, sizeof(size_t), cmp_entry_idx);
        int keepn = L.n < (size_t)width ? (int)L.n : width;
        Snap *nl = (Snap *)malloc(sizeof(Snap) * (size_t)(keepn + 1));
        int *nll = (int *)malloc(sizeof(int) * (size_t)(keepn + 1));
        if (!nl || !nll) {
            free(ord);
            free(nl);
            free(nll);
            rc = R_NOMEM;
            goto done;
        }
        for (int i = 0; i < keepn; i++) {
            BeamEntry *e = &L.e[ord[i]];
            nl[i] = e->snap;
            int ai = arena_push(&A, e->parent, &e->mv);
            if (ai < 0) {
                free(ord);
                free(nl);
                free(nll);
                rc = R_NOMEM;
                goto done;
            }
            nll[i] = ai;
        }
        free(ord);
        free(lay);
        free(lay_line);
        lay = nl;
        lay_line = nll;
        nlay = keepn;
    }
    rc = o->have ? 1 : 0;
done:
    free(lay);
    free(lay_line);
    layer_free(&L);
    free(A.a);
    put_snap(s, &start);
    s->stack_len = 0;
    return rc;
}

/* ---- Python glue ----------------------------------------------------------------------- */

static PyObject *move_to_tuple(const Move *mv) {
    PyObject *d = PyTuple_New(mv->nd);
    if (!d) return NULL;
    for (int i = 0; i < mv->nd; i++) PyTuple_SET_ITEM(d, i, PyLong_FromLong(mv->disc[i]));
    return Py_BuildValue("(iiiiiiN)", (int)mv->kind, (int)mv->card, (int)mv->r, (int)mv->s,
                         (int)mv->r2, (int)mv->s2, d);
}

static PyObject *line_to_list(const Move *line, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = move_to_tuple(&line[i]);
        if (!t) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, t);
    }
    return l;
}

static int tuple_to_move(Core *s, PyObject *t, Move *mv) {
    int kind, card, r, sl, r2, s2;
    PyObject *disc;
    if (!PyArg_ParseTuple(t, "iiiiiiO", &kind, &card, &r, &sl, &r2, &s2, &disc)) return -1;
    PyObject *seq = PySequence_Fast(disc, "discards must be a sequence");
    if (!seq) return -1;
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(seq);
    if (nd > MAXH) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many discards");
        return -1;
    }
    memset(mv, 0, sizeof *mv);
    mv->kind = (int8_t)kind;
    mv->card = (int16_t)card;
    mv->r = (int8_t)r;
    mv->s = (int8_t)sl;
    mv->r2 = (int8_t)r2;
    mv->s2 = (int8_t)s2;
    mv->nd = (int8_t)nd;
    for (Py_ssize_t i = 0; i < nd; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        mv->disc[i] = (uint8_t)c;
    }
    Py_DECREF(seq);
    (void)s;
    return 0;
}

static int read_int_list(PyObject *o, int *out, int maxn, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > maxn) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too long", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

static void core_free_tables(Core *s) {
    for (int h = 0; h <= MAXR; h++) {
        free(s->qual_pos[h]);
        free(s->qual_before[h]);
        s->qual_pos[h] = s->qual_before[h] = NULL;
    }
    free(s->next_summit);
    s->next_summit = NULL;
    for (int q = 0; q < MAXP; q++) {
        free(s->nxt_all[q]);
        s->nxt_all[q] = NULL;
        for (int h = 0; h <= MAXR; h++) {
            free(s->qual_all[q][h]);
            s->qual_all[q][h] = NULL;
        }
        free(s->deck[q]);
        s->deck[q] = NULL;
    }
    for (int f = 0; f < (MAXR + 1) * 4; f++)
        for (int q = 0; q < MAXP; q++) {
            free(s->usable_pos[f][q]);
            free(s->usable_before[f][q]);
            s->usable_pos[f][q] = s->usable_before[f][q] = NULL;
        }
}

static void Core_dealloc(Core *s) {
    core_free_tables(s);
    xt_clear(&s->tt);
    xt_clear(&s->seen);
    xt_clear(&s->expanded);
    free(s->pv);
    free(s->path);
    free(s->best_line);
    free(s->win_line);
    free(s->stack);
    free(s->beam_win);
    Py_XDECREF(s->beam_best);
    Py_XDECREF(s->check_cb);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* Core(kind, value, colour, maxrow, summit, bridge, rowlen, hand_size, decks, first_pos,
 *      look_through, bridge_max, campfire_paid, objective,
 *      transposition, dominance, bounds, window_players, table_size) */
static int Core_init(Core *s, PyObject *args, PyObject *kw) {
    PyObject *kind, *value, *colour, *maxrow, *rowlen, *decks, *first_pos;
    int summit, bridge, hand_size, lt, bm, cp, obj, tr, dom, bnd, wp, bud, bc, ng = 0, nocol = 0;
    long long table_size;
    if (!PyArg_ParseTuple(args, "OOOOiiOiOOiiiiiiiiLii|ii", &kind, &value, &colour, &maxrow, &summit,
                          &bridge, &rowlen, &hand_size, &decks, &first_pos, &lt, &bm, &cp, &obj,
                          &tr, &dom, &bnd, &wp, &table_size, &bud, &bc, &ng, &nocol))
        return -1;
    s->sw_nogood = ng;
    s->colourless = nocol;
    int tmp[1024];
    int nt = read_int_list(kind, tmp, MAXT, "kind");
    if (nt < 0) return -1;
    s->nt = nt;
    for (int i = 0; i < nt; i++) s->kind[i] = (int8_t)tmp[i];
    if (read_int_list(value, tmp, MAXT, "value") != nt) return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_ValueError, "value"), -1);
    for (int i = 0; i < nt; i++) s->value[i] = (int16_t)tmp[i];
    if (read_int_list(colour, tmp, MAXT, "colour") != nt) return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_ValueError, "colour"), -1);
    for (int i = 0; i < nt; i++) s->colour[i] = (int8_t)tmp[i];
    if (read_int_list(maxrow, tmp, MAXT, "maxrow") != nt) return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_ValueError, "maxrow"), -1);
    for (int i = 0; i < nt; i++) s->maxrow[i] = (int8_t)tmp[i];
    s->kind[nt] = -1;
    s->maxrow[nt] = 0;
    s->colour[nt] = -1;
    s->summit = summit;
    s->bridge = bridge;
    int R = read_int_list(rowlen, tmp, MAXR, "rowlen");
    if (R < 0) return -1;
    s->R = R;
    s->slots_below_peak = 0;
    for (int r = 0; r < R; r++) {
        if (tmp[r] >= MAXLEN) {
            PyErr_SetString(PyExc_ValueError, "row too long");
            return -1;
        }
        s->rowlen[r] = tmp[r];
        s->slots_below_peak += tmp[r];
    }
    s->slots_total = s->slots_below_peak + 1;
    if (hand_size > MAXH) {
        PyErr_SetString(PyExc_ValueError, "hand too large");
        return -1;
    }
    s->hand_size = hand_size;
    PyObject *dseq = PySequence_Fast(decks, "decks");
    if (!dseq) return -1;
    Py_ssize_t P = PySequence_Fast_GET_SIZE(dseq);
    if (P < 1 || P > MAXP) {
        Py_DECREF(dseq);
        PyErr_SetString(PyExc_ValueError, "players");
        return -1;
    }
    s->P = (int)P;
    for (int q = 0; q < P; q++) {
        int n = read_int_list(PySequence_Fast_GET_ITEM(dseq, q), tmp, 1024, "deck");
        if (n < 0) {
            Py_DECREF(dseq);
            return -1;
        }
        s->decklen[q] = n;
        s->deck[q] = (uint8_t *)malloc((size_t)n + 1);
        if (!s->deck[q]) {
            Py_DECREF(dseq);
            PyErr_NoMemory();
            return -1;
        }
        for (int i = 0; i < n; i++) s->deck[q][i] = (uint8_t)tmp[i];
    }
    Py_DECREF(dseq);
    PyObject *fseq = PySequence_Fast(first_pos, "first_pos");
    if (!fseq) return -1;
    if (PySequence_Fast_GET_SIZE(fseq) != P) {
        Py_DECREF(fseq);
        PyErr_SetString(PyExc_ValueError, "first_pos");
        return -1;
    }
    for (int q = 0; q < P; q++) {
        int n = read_int_list(PySequence_Fast_GET_ITEM(fseq, q), tmp, MAXT + 2, "first_pos");
        if (n < 0) {
            Py_DECREF(fseq);
            return -1;
        }
        for (int i = 0; i < n; i++) s->first_pos[q][i] = (int16_t)tmp[i];
    }
    Py_DECREF(fseq);
    {
        /* the packing's field widths, from the geometry (pack_key) */
        KeyShape *ks = &s->ks;
        int maxlen = 0, maxdeck = 0;
        for (int r = 0; r < R; r++) {
            ks->rowlen[r] = s->rowlen[r];
            if (s->rowlen[r] > maxlen) maxlen = s->rowlen[r];
        }
        for (int q = 0; q < P; q++)
            if (s->decklen[q] > maxdeck) maxdeck = s->decklen[q];
        ks->R = R;
        ks->P = (int)P;
        ks->nogood = ng;
        ks->nt = nt;
        ks->maxdeck = maxdeck;
        ks->w_turn = P > 1 ? bits_for((int)P - 1) : 0;
        ks->w_len = bits_for(maxlen);
        ks->w_code = bits_for(nt);
        ks->w_hand = bits_for(hand_size);
        ks->w_ptr = bits_for(maxdeck);
    }
    s->look_through = lt;
    s->bridge_max = bm;
    s->campfire_paid = cp;
    s->rules.kind = s->kind;
    s->rules.value = s->value;
    s->rules.colour = s->colour;
    s->rules.maxrow = s->maxrow;
    s->rules.bridge = bridge;
    s->rules.R = R;
    s->rules.rowlen = s->rowlen;
    s->rules.look_through = lt;
    s->rules.bridge_max = bm;
    s->rules.campfire_paid = cp;
    s->rules.colourless = nocol;
    s->objective = obj;
    s->sw_transposition = tr;
    s->sw_dominance = dom;
    s->sw_bounds = bnd;
    s->sw_window_players = wp;
    s->sw_budget = bud;
    s->sw_bridge_costs = bc;
    s->table_size = table_size;
    {
        /* the table: at most table_size entries in at most table_size * 4/3 slots (3/4
           full), an overflow arena of at most 8 bytes an entry (64 KB at least) */
        size_t lim = table_size < 1 ? 1 : (size_t)table_size;
        if (lim > ((size_t)3 << 30)) lim = (size_t)3 << 30; /* slot indexes fit 32 bits */
        s->tt.limit = lim;
        s->tt.max_slots = lim + lim / 3 + 1;
        s->tt.amax = lim * 8 < (1 << 16) ? (1 << 16) : lim * 8;
        s->seen.limit = s->seen.max_slots = SIZE_MAX;
        s->seen.amax = SIZE_MAX;
        s->expanded.limit = s->expanded.max_slots = SIZE_MAX;
        s->expanded.amax = SIZE_MAX;
    }
    s->best_progress = -1;
    s->seen_cap = 0;
    s->beam_win_len = -1;
    if (ensure_lines(s)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* set_state(rows, hands, ptr, to_move, peak_filled) */
static PyObject *Core_set_state(Core *s, PyObject *args) {
    PyObject *rows, *hands, *ptr;
    int to_move, peak;
    if (!PyArg_ParseTuple(args, "OOOii", &rows, &hands, &ptr, &to_move, &peak)) return NULL;
    int tmp[1024];
    PyObject *rs = PySequence_Fast(rows, "rows");
    if (!rs) return NULL;
    if (PySequence_Fast_GET_SIZE(rs) != s->R) {
        Py_DECREF(rs);
        PyErr_SetString(PyExc_ValueError, "rows");
        return NULL;
    }
    s->filled = 0;
    s->n_bridges = 0;
    for (int r = 0; r < s->R; r++) {
        int n = read_int_list(PySequence_Fast_GET_ITEM(rs, r), tmp, MAXLEN, "row");
        if (n < 0) {
            Py_DECREF(rs);
            return NULL;
        }
        s->rlen[r] = n;
        for (int i = 0; i < n; i++) {
            s->rows[r][i] = (uint8_t)tmp[i];
            if (tmp[i] == s->bridge) s->n_bridges++;
        }
        s->filled += n;
    }
    Py_DECREF(rs);
    s->filled += peak;
    PyObject *hs = PySequence_Fast(hands, "hands");
    if (!hs) return NULL;
    if (PySequence_Fast_GET_SIZE(hs) != s->P) {
        Py_DECREF(hs);
        PyErr_SetString(PyExc_ValueError, "hands");
        return NULL;
    }
    for (int q = 0; q < s->P; q++) {
        int n = read_int_list(PySequence_Fast_GET_ITEM(hs, q), tmp, MAXH, "hand");
        if (n < 0) {
            Py_DECREF(hs);
            return NULL;
        }
        s->hlen[q] = n;
        for (int i = 0; i < n; i++) s->hands[q][i] = (uint8_t)tmp[i];
    }
    Py_DECREF(hs);
    if (read_int_list(ptr, tmp, MAXP, "ptr") != s->P) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ptr");
        return NULL;
    }
    for (int q = 0; q < s->P; q++) s->ptr[q] = tmp[q];
    s->to_move = to_move;
    memset(s->remaining, 0, sizeof s->remaining);
    s->n_remaining = 0;
    for (int q = 0; q < s->P; q++) {
        for (int i = 0; i < s->hlen[q]; i++) s->remaining[s->hands[q][i]]++;
        for (int i = s->ptr[q]; i < s->decklen[q]; i++) s->remaining[s->deck[q][i]]++;
        s->n_remaining += s->hlen[q] + s->decklen[q] - s->ptr[q];
    }
    memset(s->rem_by_maxrow, 0, sizeof s->rem_by_maxrow);
    for (int c = 0; c < s->nt; c++) s->rem_by_maxrow[s->maxrow[c]] += s->remaining[c];
    s->stack_len = 0;
    s->depth = 0;
    Py_RETURN_NONE;
}

static PyObject *Core_key(Core *s, PyObject *Py_UNUSED(ignored)) {
    uint8_t buf[KEYMAX];
    size_t n = build_key(s, dead_flags(s), buf);
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n);
}

static PyObject *Core_learned_key(Core *s, PyObject *Py_UNUSED(ignored)) {
    uint8_t buf[KEYMAX];
    size_t n = build_learned_key(s, dead_flags(s), buf);
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n);
}

static PyObject *Core_children(Core *s, PyObject *Py_UNUSED(ignored)) {
    size_t base = s->stack_len;
    int n = gen_children(s, dead_flags(s));
    if (n < 0) return PyErr_NoMemory();
    PyObject *l = line_to_list(s->stack + base, n);
    s->stack_len = base;
    return l;
}

/* placements(player=to_move) -> [(kind, card, r, s, r2, s2, cost)]: State.placements, the
 * legal placements of a player with their costs (0-based rows and slots), in generation
 * order; for the move-generation corpus (tests/test_perft.py) */
static PyObject *Core_placements(Core *s, PyObject *args) {
    int p = -1;
    if (!PyArg_ParseTuple(args, "|i", &p)) return NULL;
    if (p < 0) p = s->to_move;
    if (p >= s->P) {
        PyErr_SetString(PyExc_ValueError, "no such player");
        return NULL;
    }
    int np = placements(s, p, NULL, 0);
    Placement *pls = (Placement *)malloc((size_t)(np ? np : 1) * sizeof(Placement));
    if (!pls) return PyErr_NoMemory();
    placements(s, p, pls, np);
    PyObject *l = PyList_New(np);
    if (!l) {
        free(pls);
        return NULL;
    }
    for (int i = 0; i < np; i++) {
        PyObject *t = Py_BuildValue("(iiiiiii)", (int)pls[i].kind, (int)pls[i].card, (int)pls[i].r,
                                    (int)pls[i].s, (int)pls[i].r2, (int)pls[i].s2, pls[i].cost);
        if (!t) {
            free(pls);
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, t);
    }
    free(pls);
    return l;
}

/* the parts of the state that apply_move and undo_move change */
typedef struct {
    uint8_t rows[MAXR][MAXLEN];
    int rlen[MAXR];
    uint8_t hands[MAXP][MAXH + 2];
    int hlen[MAXP];
    int ptr[MAXP];
    int to_move, filled, n_bridges, n_remaining;
    int remaining[MAXT + 2];
    int rem_by_maxrow[MAXR + 1];
} RulesSnap;

static void rules_snap(const Core *s, RulesSnap *x) {
    memset(x, 0, sizeof *x);
    for (int r = 0; r < s->R; r++) {
        x->rlen[r] = s->rlen[r];
        memcpy(x->rows[r], s->rows[r], (size_t)s->rlen[r]);
    }
    for (int q = 0; q < s->P; q++) {
        x->hlen[q] = s->hlen[q];
        memcpy(x->hands[q], s->hands[q], (size_t)s->hlen[q]);
        x->ptr[q] = s->ptr[q];
    }
    x->to_move = s->to_move;
    x->filled = s->filled;
    x->n_bridges = s->n_bridges;
    x->n_remaining = s->n_remaining;
    memcpy(x->remaining, s->remaining, sizeof x->remaining);
    memcpy(x->rem_by_maxrow, s->rem_by_maxrow, sizeof x->rem_by_maxrow);
}

/* successor(move) -> (rows, hands, ptr, to_move, filled, n_bridges): the state after a move
 * (State.apply), which is then taken back (State.undo); RuntimeError if the undo does not
 * give back the state exactly. The move must be one of children() (it is not checked for
 * legality, only that it stays on the arrays); for the corpus test. */
static PyObject *Core_successor(Core *s, PyObject *args) {
    PyObject *t;
    if (!PyArg_ParseTuple(args, "O", &t)) return NULL;
    Move mv;
    if (tuple_to_move(s, t, &mv)) return NULL;
    int ok = mv.kind >= M_PLACE && mv.kind <= M_SUMMIT && mv.nd >= 0;
    for (int i = 0; ok && i < mv.nd; i++) ok = mv.disc[i] < s->nt;
    if (ok && mv.kind != M_DISCARD)
        ok = mv.card >= 0 && mv.card < s->nt && mv.r >= 0 && mv.r <= s->R && mv.s >= 0 &&
             mv.s < MAXLEN && (mv.kind == M_SUMMIT || mv.r < s->R) &&
             (mv.kind != M_CAMPFIRE || (mv.r2 > mv.r && mv.r2 < s->R && mv.s < s->rlen[mv.r])) &&
             (mv.kind != M_BRIDGE_REPLACE || mv.s < s->rlen[mv.r]) &&
             (mv.kind != M_PLACE || s->rlen[mv.r] < s->rowlen[mv.r]);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a move on this state's arrays");
        return NULL;
    }
    RulesSnap before, after;
    rules_snap(s, &before);
    Undo u = apply_move(s, &mv);
    PyObject *rows = PyList_New(s->R), *hands = PyList_New(s->P), *ptr = PyList_New(s->P);
    if (!rows || !hands || !ptr) {
        Py_XDECREF(rows);
        Py_XDECREF(hands);
        Py_XDECREF(ptr);
        undo_move(s, &mv, u);
        return NULL;
    }
    for (int r = 0; r < s->R; r++) {
        PyObject *row = PyList_New(s->rlen[r]);
        for (int i = 0; row && i < s->rlen[r]; i++) PyList_SET_ITEM(row, i, PyLong_FromLong(s->rows[r][i]));
        PyList_SET_ITEM(rows, r, row ? row : Py_NewRef(Py_None));
    }
    for (int q = 0; q < s->P; q++) {
        PyObject *h = PyList_New(s->hlen[q]);
        for (int i = 0; h && i < s->hlen[q]; i++) PyList_SET_ITEM(h, i, PyLong_FromLong(s->hands[q][i]));
        PyList_SET_ITEM(hands, q, h ? h : Py_NewRef(Py_None));
        PyList_SET_ITEM(ptr, q, PyLong_FromLong(s->ptr[q]));
    }
    PyObject *res = Py_BuildValue("(NNNiii)", rows, hands, ptr, s->to_move, s->filled, s->n_bridges);
    undo_move(s, &mv, u);
    rules_snap(s, &after);
    if (memcmp(&before, &after, sizeof before) != 0) {
        Py_XDECREF(res);
        PyErr_SetString(PyExc_RuntimeError, "undo_move did not give back the state");
        return NULL;
    }
    return res;
}

/* bounds(budget) -> (bound_fails, waste_lower_bound, players_window_bound or -1,
 *                    players_turns_bound or -1), for the equivalence tests */
static PyObject *Core_bounds(Core *s, PyObject *args) {
    long long budget;
    if (!PyArg_ParseTuple(args, "L", &budget)) return NULL;
    int64_t saved[4];
    memcpy(saved, s->pruned, sizeof saved);
    int bf = bound_fails(s, budget);
    memcpy(s->pruned, saved, sizeof saved);
    int64_t wl = waste_lower_bound(s, budget);
    int64_t pw = s->P > 1 ? players_window_bound(s, budget) : -1;
    int64_t pt = s->P > 1 ? players_turns_bound(s, budget) : -1;
    if (bf == -2 || wl == -2 || pw == -2 || pt == -2) return PyErr_NoMemory();
    return Py_BuildValue("(OLLL)", bf ? Py_True : Py_False, (long long)wl, (long long)pw,
                         (long long)pt);
}

static int begin_call(Core *s, PyObject *cb, long long nodes, long long next_check,
                      int best_progress) {
    Py_XINCREF(cb);
    Py_XSETREF(s->check_cb, cb);
    s->nodes = nodes;
    s->next_check = next_check;
    s->best_progress = best_progress;
    s->best_len = -1;
    s->have_win = 0;
    s->depth = 0;
    s->stack_len = 0;
    return 0;
}

/* dfs(budget, check_cb, nodes, next_check, best_progress) -> bool; check_cb(nodes) returns
 * the next node count to call it at, or raises (Stop, KeyboardInterrupt) */
static PyObject *Core_dfs(Core *s, PyObject *args) {
    long long budget, nodes, next_check;
    int best_progress;
    PyObject *cb;
    if (!PyArg_ParseTuple(args, "LOLLi", &budget, &cb, &nodes, &next_check, &best_progress))
        return NULL;
    begin_call(s, cb, nodes, next_check, best_progress);
    s->tt.gen++; /* a new generation: one call of the DFS (one budget) */
    int r = dfs(s, budget);
    Py_CLEAR(s->check_cb);
    if (r == R_NOMEM) return PyErr_NoMemory();
    if (r == R_STOP) {
        if (!PyErr_Occurred()) PyErr_SetNone(StopError);
        return NULL;
    }
    return PyBool_FromLong(r);
}

/* furthest(cap, check_cb, nodes, next_check, best_progress) -> True (finished) */
static PyObject *Core_furthest(Core *s, PyObject *args) {
    long long cap, nodes, next_check;
    int best_progress;
    PyObject *cb;
    if (!PyArg_ParseTuple(args, "LOLLi", &cap, &cb, &nodes, &next_check, &best_progress))
        return NULL;
    begin_call(s, cb, nodes, next_check, best_progress);
    xt_clear(&s->seen);
    s->seen.limit = s->seen.max_slots = SIZE_MAX;
    s->seen_cap = cap;
    int r = furthest_rec(s);
    Py_CLEAR(s->check_cb);
    if (r == R_NOMEM) return PyErr_NoMemory();
    if (r == R_STOP) {
        if (!PyErr_Occurred()) PyErr_SetNone(StopError);
        return NULL;
    }
    Py_RETURN_TRUE;
}

/* beam(width, cap, weights(spent, real, bridge, slack, slack_floor, keep), spent0, check_cb,
 *      nodes, next_check, best_progress) -> (found, win line or None, best line or None,
 *      best_progress); a limit raises, and beam_result() then gives the win found before it */
static PyObject *Core_beam(Core *s, PyObject *args) {
    int width, spent0, best_progress;
    long long cap, nodes, next_check;
    BeamWeights w;
    PyObject *cb;
    if (!PyArg_ParseTuple(args, "iL(iiiiii)iOLLi", &width, &cap, &w.beam_spent, &w.beam_real,
                          &w.beam_bridge, &w.beam_slack, &w.beam_slack_floor, &w.keep, &spent0,
                          &cb, &nodes, &next_check, &best_progress))
        return NULL;
    begin_call(s, cb, nodes, next_check, best_progress);
    s->spent0 = spent0;
    BeamOut o;
    memset(&o, 0, sizeof o);
    o.cap = cap;
    o.best_len = -1;
    int r = run_beam(s, width, &w, s->objective == OBJ_WASTE, &o);
    Py_CLEAR(s->check_cb);
    /* keep the win for beam_result() (a limit may have stopped the beam after it) */
    free(s->beam_win);
    s->beam_win = o.win;
    s->beam_win_len = o.have ? o.win_len : -1;
    PyObject *best = o.best_len >= 0 ? line_to_list(o.best, o.best_len) : (Py_INCREF(Py_None), Py_None);
    free(o.best);
    if (!best) return NULL;
    if (r == R_NOMEM) {
        Py_DECREF(best);
        return PyErr_NoMemory();
    }
    if (r == R_STOP) {
        /* the furthest line so far is passed on through beam_best */
        Py_XSETREF(s->beam_best, best);
        s->beam_best_progress = s->best_progress;
        if (!PyErr_Occurred()) PyErr_SetNone(StopError);
        return NULL;
    }
    PyObject *win = o.have ? line_to_list(o.win, o.win_len) : (Py_INCREF(Py_None), Py_None);
    if (!win) {
        Py_DECREF(best);
        return NULL;
    }
    return Py_BuildValue("(ONNi)", r ? Py_True : Py_False, win, best, s->best_progress);
}

/* beam_result() -> (win line or None, best line or None, best_progress) after a stop */
static PyObject *Core_beam_result(Core *s, PyObject *Py_UNUSED(ignored)) {
    PyObject *win = s->beam_win_len >= 0 ? line_to_list(s->beam_win, s->beam_win_len)
                                         : (Py_INCREF(Py_None), Py_None);
    if (!win) return NULL;
    PyObject *best = s->beam_best ? s->beam_best : Py_None;
    Py_INCREF(best);
    Py_CLEAR(s->beam_best);
    return Py_BuildValue("(NNi)", win, best, s->beam_best_progress);
}

/* counters() -> (nodes, tt_hits, tt_evictions, (summit, height, cards, objective, spare),
 *                best_progress, pv_hits, seen states) */
static PyObject *Core_counters(Core *s, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(LLL(LLLLL)iLL)", (long long)s->nodes, (long long)s->tt_hits,
                         (long long)s->tt_evictions, (long long)s->pruned[PR_SUMMIT],
                         (long long)s->pruned[PR_HEIGHT], (long long)s->pruned[PR_CARDS],
                         (long long)s->pruned[PR_OBJECTIVE], (long long)s->pruned[PR_SPARE],
                         s->best_progress,
                         (long long)s->pv_hits, (long long)s->seen.count);
}

static PyObject *Core_reset_counters(Core *s, PyObject *Py_UNUSED(ignored)) {
    s->tt_hits = s->tt_evictions = s->pv_hits = 0;
    memset(s->pruned, 0, sizeof s->pruned);
    Py_RETURN_NONE;
}

static PyObject *Core_win_line(Core *s, PyObject *Py_UNUSED(ignored)) {
    if (!s->have_win) Py_RETURN_NONE;
    return line_to_list(s->win_line, s->win_len);
}

static PyObject *Core_best_line(Core *s, PyObject *Py_UNUSED(ignored)) {
    if (s->best_len < 0) Py_RETURN_NONE;
    return line_to_list(s->best_line, s->best_len);
}

/* the exact key of Python key bytes (longer than KEYMAX: a ValueError) */
static int py_xkey(Core *s, const char *buf, Py_ssize_t n, uint8_t *pk, XKey *k) {
    if (n < 0 || n > KEYMAX) {
        PyErr_SetString(PyExc_ValueError, "key longer than KEYMAX bytes");
        return -1;
    }
    *k = make_xkey(&s->ks, (const uint8_t *)buf, (size_t)n, pk);
    return 0;
}

/* tt_get(key bytes) -> the stored bound or None */
static PyObject *Core_tt_get(Core *s, PyObject *args) {
    const char *buf;
    Py_ssize_t n;
    uint8_t pk[KEYMAX];
    XKey k;
    if (!PyArg_ParseTuple(args, "y#", &buf, &n)) return NULL;
    if (py_xkey(s, buf, n, pk, &k)) return NULL;
    XEntry *x = xt_find(&s->tt, &k);
    if (!x) Py_RETURN_NONE;
    return PyLong_FromLongLong(x->val);
}

/* tt_put(key bytes, bound): store a bound as the DFS does (a debug entry point: the tests
 * put keys under a few forced hashes, tt_debug_hash_bits, and read each back) */
static PyObject *Core_tt_put(Core *s, PyObject *args) {
    const char *buf;
    Py_ssize_t n;
    long long val;
    uint8_t pk[KEYMAX];
    XKey k;
    if (!PyArg_ParseTuple(args, "y#L", &buf, &n, &val)) return NULL;
    if (py_xkey(s, buf, n, pk, &k)) return NULL;
    if (val < 0 || val > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "bound out of range");
        return NULL;
    }
    if (xt_store(&s->tt, &k, (int32_t)val)) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* tt_debug_hash_bits(bits): the table hashes keys to `bits` bits only (0: every key the
 * same hash; 64: the full hash again), so that tests collide different keys on purpose.
 * Only on an empty table (a ValueError otherwise). */
static PyObject *Core_tt_debug_hash_bits(Core *s, PyObject *args) {
    int bits;
    if (!PyArg_ParseTuple(args, "i", &bits)) return NULL;
    if (s->tt.count) {
        PyErr_SetString(PyExc_ValueError, "the table is not empty");
        return NULL;
    }
    s->tt.hcut = bits < 64;
    s->tt.hmask = bits <= 0 ? 0 : bits >= 64 ? ~0ULL : ((uint64_t)1 << bits) - 1;
    Py_RETURN_NONE;
}

/* tt_stats() -> {entries, slots, slot_bytes, bytes, inline, overflow, raw, arena_used,
 *                arena_bytes, limit, max_slots, writes_new, writes_raised, replaced,
 *                skipped, expansions, packed: 1 if the state keys pack} */
static PyObject *Core_tt_stats(Core *s, PyObject *Py_UNUSED(ignored)) {
    XT *t = &s->tt;
    return Py_BuildValue(
        "{s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:L,s:L,s:L,s:L,s:L}",
        "entries", (Py_ssize_t)t->count, "slots", (Py_ssize_t)t->cap,
        "slot_bytes", (Py_ssize_t)(sizeof(XEntry) + 1),
        "bytes", (Py_ssize_t)(t->cap * (sizeof(XEntry) + 1) + t->acap),
        "inline", (Py_ssize_t)(t->count - t->n_over), "overflow", (Py_ssize_t)t->n_over,
        "raw", (Py_ssize_t)t->n_raw, "arena_used", (Py_ssize_t)(t->alen - t->agarbage),
        "arena_bytes", (Py_ssize_t)t->acap, "limit", (Py_ssize_t)t->limit,
        "max_slots", (Py_ssize_t)t->max_slots,
        "writes_new", (long long)t->writes_new, "writes_raised", (long long)t->writes_raised,
        "replaced", (long long)t->replaced, "skipped", (long long)t->skipped,
        "expansions", (long long)s->expansions);
}

/* track_expansions(on): count the distinct keys the DFS expands (an unbounded exact set
 * beside the table, for benchmarks/ctable.py's re-expansion ratio); expanded() ->
 * (expansions, distinct) */
static PyObject *Core_track_expansions(Core *s, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    s->track_expanded = on;
    Py_RETURN_NONE;
}

static PyObject *Core_expanded(Core *s, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(LL)", (long long)s->expansions, (long long)s->distinct_expanded);
}

static PyObject *Core_tt_len(Core *s, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromSize_t(s->tt.count);
}

static PyObject *Core_evict(Core *s, PyObject *Py_UNUSED(ignored)) {
    int64_t n = xt_evict_half(&s->tt);
    if (n < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(n);
}

static PyObject *Core_clear_seen(Core *s, PyObject *Py_UNUSED(ignored)) {
    xt_clear(&s->seen);
    Py_RETURN_NONE;
}

/* set_pv([(key bytes, move tuple), ...]) */
static PyObject *Core_set_pv(Core *s, PyObject *args) {
    PyObject *lst;
    if (!PyArg_ParseTuple(args, "O", &lst)) return NULL;
    PyObject *seq = PySequence_Fast(lst, "pv");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    free(s->pv);
    s->pv = NULL;
    s->pv_count = 0;
    s->pv_cap = 0;
    if (n == 0) {
        Py_DECREF(seq);
        Py_RETURN_NONE;
    }
    size_t cap = 16;
    while (cap < (size_t)n * 2) cap *= 2;
    s->pv = (PVEntry *)calloc(cap, sizeof(PVEntry));
    if (!s->pv) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    s->pv_cap = cap;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        const char *buf;
        Py_ssize_t kn;
        PyObject *mt;
        if (!PyArg_ParseTuple(it, "y#O", &buf, &kn, &mt)) {
            Py_DECREF(seq);
            return NULL;
        }
        Move mv;
        if (tuple_to_move(s, mt, &mv)) {
            Py_DECREF(seq);
            return NULL;
        }
        order_key(s, &mv);
        FP f = fingerprint((const uint8_t *)buf, (size_t)kn);
        size_t m = cap - 1, j = (size_t)f.a & m;
        while (s->pv[j].used && !(s->pv[j].a == f.a && s->pv[j].b == f.b)) j = (j + 1) & m;
        if (!s->pv[j].used) s->pv_count++;
        s->pv[j].a = f.a;
        s->pv[j].b = f.b;
        s->pv[j].mv = mv; /* a later entry under the same key replaces it, as a dict */
        s->pv[j].used = 1;
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyMethodDef Core_methods[] = {
    {"set_state", (PyCFunction)Core_set_state, METH_VARARGS, "set_state(rows, hands, ptr, to_move, peak)"},
    {"key", (PyCFunction)Core_key, METH_NOARGS, "the state key (State.key bytes)"},
    {"learned_key", (PyCFunction)Core_learned_key, METH_NOARGS, "the table's key (Nogoods.learned_key bytes)"},
    {"children", (PyCFunction)Core_children, METH_NOARGS, "State.children (search order)"},
    {"placements", (PyCFunction)Core_placements, METH_VARARGS, "State.placements(player): (kind, card, r, s, r2, s2, cost)"},
    {"successor", (PyCFunction)Core_successor, METH_VARARGS, "the state after a move, then undone"},
    {"bounds", (PyCFunction)Core_bounds, METH_VARARGS, "(bound_fails, waste, window, turns)"},
    {"dfs", (PyCFunction)Core_dfs, METH_VARARGS, "Search.dfs"},
    {"furthest", (PyCFunction)Core_furthest, METH_VARARGS, "Search.furthest"},
    {"counters", (PyCFunction)Core_counters, METH_NOARGS, "search counters"},
    {"reset_counters", (PyCFunction)Core_reset_counters, METH_NOARGS, "zero hits, evictions, cuts"},
    {"win_line", (PyCFunction)Core_win_line, METH_NOARGS, "the last win's line or None"},
    {"best_line", (PyCFunction)Core_best_line, METH_NOARGS, "the furthest line of the last call or None"},
    {"tt_get", (PyCFunction)Core_tt_get, METH_VARARGS, "tt_get(key): the table's bound of a key or None"},
    {"tt_put", (PyCFunction)Core_tt_put, METH_VARARGS, "tt_put(key, bound): store a bound (debug)"},
    {"tt_debug_hash_bits", (PyCFunction)Core_tt_debug_hash_bits, METH_VARARGS, "hash keys to a few bits (tests: collisions)"},
    {"tt_stats", (PyCFunction)Core_tt_stats, METH_NOARGS, "the table's size and counters"},
    {"track_expansions", (PyCFunction)Core_track_expansions, METH_VARARGS, "count distinct expanded keys (benchmarks)"},
    {"expanded", (PyCFunction)Core_expanded, METH_NOARGS, "(expansions, distinct expanded keys)"},
    {"tt_len", (PyCFunction)Core_tt_len, METH_NOARGS, "table entries"},
    {"evict", (PyCFunction)Core_evict, METH_NOARGS, "drop half of the table (older generations, smaller bounds first)"},
    {"clear_seen", (PyCFunction)Core_clear_seen, METH_NOARGS, "free the furthest seen-set"},
    {"set_pv", (PyCFunction)Core_set_pv, METH_VARARGS, "principal variation: [(key, move)]"},
    {"beam", (PyCFunction)Core_beam, METH_VARARGS, "Beam.beam"},
    {"beam_result", (PyCFunction)Core_beam_result, METH_NOARGS, "the beam's win and furthest line after a stop"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solver._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled search core of one Search (see solver/_core.c)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static PyObject *mod_set_stop(PyObject *m, PyObject *args) {
    PyObject *e;
    if (!PyArg_ParseTuple(args, "O", &e)) return NULL;
    Py_XINCREF(e);
    Py_XSETREF(StopError, e);
    Py_RETURN_NONE;
}

static PyMethodDef mod_methods[] = {
    {"set_stop", mod_set_stop, METH_VARARGS, "the exception raised when a limit runs out"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef coremodule = {PyModuleDef_HEAD_INIT, "_core",
                                        "Compiled search core (solver/_core.c)", -1,
                                        mod_methods};

#ifndef ASCENT_CORE_SOURCE
#define ASCENT_CORE_SOURCE ""
#endif

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "ABI", 1);
    /* the digest of this file that setup.py built it from: solver.exhaustive checks it */
    PyModule_AddStringConstant(m, "SOURCE_HASH", ASCENT_CORE_SOURCE);
    return m;
}
