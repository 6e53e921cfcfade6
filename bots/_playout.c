/* bots._playout: the compiled playout engine of bots.fastplay.
 *
 * It plays Tranquility: The Ascent (model/game.py: generate_placements, why_not, _apply,
 * outcome) and the greedy policy (bots/greedy.py: GreedyPolicy.ranked, keep_values, _shape)
 * exactly as the Python code does: the same moves in the same order with bit-identical scores
 * (the double arithmetic is done in the Python order; sorts are stable).
 *
 * Encoding: a card is a small int whose order is the canonical order (Card.sort_key):
 * Ascent (value v, colour c) = (v-1)*5+c (0..59), Campfire of colour c = 60+c, Bridge = 65,
 * Summit = 66. Hands are kept in canonical order, decks top first, the mountain as rows of
 * card ids. Moves cross the boundary as tuples (kind, card, row, slot, to_row, to_slot,
 * discard tuple) with kind 0 discard, 1 place, 2 campfire; card -1 for a discard.
 *
 * push() applies a move WITHOUT checking its legality (as Game._apply): only legal moves may
 * be given. It refuses (ValueError) only a move that would read or write off its arrays.
 * Goats are not handled (bots.fastplay.supported refuses goats=on). The move lists are static
 * scratch buffers: the engine runs under the GIL and is not reentrant (it never releases it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "rules_core.h" /* the placement rules, shared with solver/_core.c */

#define MAXROWS 8
#define MAXSLOTS (MAXROWS + 1)
#define MAXP 5
#define MAXHAND 8
#define MAXCARDS 300
#define NTYPES 67
#define BRIDGE 65
#define SUMMIT 66
#define K_ASCENT 0
#define K_CAMPFIRE 1
#define K_BRIDGE 2
#define K_SUMMIT 3
#define MAXPL 4096
#define NONE_REF 0

enum { M_DISCARD = 0, M_PLACE = 1, M_CAMPFIRE = 2 };

static int8_t KIND[NTYPES], COL[NTYPES];
static int16_t VAL[NTYPES];

typedef struct {
    int rows, hand_size, summits, players;
    int look_through, replace_left, campfire_free;
    double slot_value, bridge_penalty, last_summit, flex, replace_bonus;
    int max_bridges, place_bridges;
    int8_t maxrow[NTYPES]; /* R4: an Ascent card's highest row (rules_core.h) */
    int rowlen[MAXROWS];   /* slots of rows 1..rows (0-based) */
} Params;

typedef struct {
    uint8_t m[MAXROWS + 1][MAXSLOTS + 1];
    int mlen[MAXROWS + 1];
    uint8_t hand[MAXP][MAXHAND];
    int hlen[MAXP];
    uint8_t deck[MAXCARDS];
    int16_t dpos[MAXP], dend[MAXP];
    uint8_t out[MAXCARDS];
    int16_t nout;
    int16_t summits_out; /* Summits in out */
    int16_t bridges_up;  /* Bridges on the mountain */
    int to_move, turn;
} State;

typedef struct {
    int8_t kind, card, row, slot, to_row, to_slot, ndisc;
    int8_t disc[MAXHAND];
} CMove;

/* A legal placement (rules_core.h; rows and slots 0-based there) and its fields as
 * Game.generate_placements names them (1-based rows and slots). */
typedef RCPlacement Placement;
#define PL_ROW(pl) ((pl)->r + 1)
#define PL_SLOT(pl) ((pl)->s + 1)
#define PL_TO_ROW(pl) ((pl)->kind == RC_CAMPFIRE_MOVE ? (pl)->r2 + 1 : 0)
#define PL_TO_SLOT(pl) ((pl)->kind == RC_CAMPFIRE_MOVE ? (pl)->s2 + 1 : 0)
#define PL_ONTO(pl) ((pl)->kind == RC_ONTO_BRIDGE)

typedef struct {
    double score;
    CMove mv;
} Entry;

/* ---- geometry and references (model/game.py) ------------------------------------------ */

static inline int row_length(const Params *P, int row) { return row == P->rows + 1 ? 1 : P->rows + 2 - row; }
static inline int max_row(const Params *P, int v) { return v < P->rows ? v : P->rows; }
static inline int is_won(const Params *P, const State *s) { return s->mlen[P->rows] > 0; }

/* The card tables for rc_reference, by bridge_neighbour (0 zero, 1 look-through); set up with
 * KIND, VAL and COL by the module's init. */
static RCRules REF_RULES[2];

/* Game._reference: value of the nearest non-Campfire card from slot (1-based) in direction
 * step (rules_core.h's rc_reference), NONE_REF when there is none. */
static int reference(const Params *P, const State *s, int row, int slot, int step) {
    int v = rc_reference(&REF_RULES[P->look_through != 0], s->m[row - 1], s->mlen[row - 1],
                         slot - 1 + step, step);
    return v < 0 ? NONE_REF : v;
}

/* ---- move generation: the shared placement rules (solver/rules_core.h) ------------------ */

/* Game.generate_placements: the legal placements of the player to move with their costs
 * (none once the game is won), at most MAXPL; with stop_at_one, at most one. */
static int generate_placements(const Params *P, const State *s, Placement *pl, int stop_at_one) {
    if (is_won(P, s)) return 0;
    RCRules k = {KIND, VAL, COL, P->maxrow, BRIDGE, P->rows, P->rowlen, P->look_through,
                 !P->replace_left, !P->campfire_free, 0};
    int p = s->to_move;
    int n = rc_placements(&k, &s->m[0][0], MAXSLOTS + 1, s->mlen, s->mlen[P->rows] > 0, s->bridges_up,
                          s->hand[p], s->hlen[p], pl, MAXPL, stop_at_one);
    return n < MAXPL ? n : MAXPL;
}

/* Game.outcome: 1 win, 2 loss, 0 going on. */
static int outcome(const Params *P, const State *s) {
    static Placement one[1];
    if (is_won(P, s)) return 1;
    if (s->hlen[s->to_move] >= 2) return 0;
    return generate_placements(P, s, one, 1) ? 0 : 2;
}

/* ---- the greedy policy (bots/greedy.py) ------------------------------------------------- */

static void keep_values(const Params *P, const State *s, double *keep) {
    int R = P->rows;
    int p = s->to_move;
    int open[MAXROWS + 1], refs[MAXROWS + 1];
    for (int r = 1; r <= R; r++) {
        int n = s->mlen[r - 1];
        open[r] = n < row_length(P, r);
        refs[r] = n ? reference(P, s, r, n + 1, -1) : NONE_REF;
    }
    int summits_mountain = s->mlen[R]; /* a Summit stands only on the peak (R10) */
    int summits_left = P->summits - (s->summits_out + summits_mountain);
    int n_summits_hand = 0;
    for (int h = 0; h < s->hlen[p]; h++) n_summits_hand += s->hand[p][h] == SUMMIT;
    int prev = -1;
    for (int h = 0; h < s->hlen[p]; h++) {
        int c = s->hand[p][h];
        if (c == prev) continue;
        prev = c;
        int kind = KIND[c];
        if (kind == K_SUMMIT) {
            if (summits_left - n_summits_hand <= 0) { keep[c] = P->last_summit; continue; }
            double v = summits_left <= 2 ? 0.9 : 0.2;
            if (n_summits_hand == 1) keep[c] = v;
            else {
                double w = 0.05 + v / (double)n_summits_hand;
                keep[c] = w < v ? w : v; /* min(v, w): v unless w < v */
            }
        } else if (kind == K_BRIDGE) {
            int live = 0;
            for (int r = 1; r < R; r++) {
                int n = s->mlen[r - 1];
                if (1 <= n && n <= row_length(P, r) - 2) { live = 1; break; }
            }
            keep[c] = live ? 0.3 : 0.0;
        } else if (kind == K_CAMPFIRE) {
            int live = 0;
            for (int r = 1; r < R && !live; r++)
                for (int i = 0; i < s->mlen[r - 1]; i++) {
                    int x = s->m[r - 1][i];
                    if (KIND[x] == K_ASCENT && COL[x] == COL[c]) { live = 1; break; }
                }
            if (live) {
                live = 0;
                for (int r = 2; r <= R; r++) if (open[r]) { live = 1; break; }
            }
            keep[c] = live ? 0.6 : 0.0;
        } else {
            int top = max_row(P, VAL[c]);
            int any_row = 0;
            double best = 0.0;
            for (int r = 1; r <= top; r++) {
                if (!open[r]) continue;
                any_row = 1;
                double fit = refs[r] == NONE_REF ? 1.0 : 1 - (double)abs(VAL[c] - refs[r]) / 4;
                if (fit < 0.0) fit = 0.0; /* max(0.0, x) */
                if (fit > best) best = fit;
                if (best >= 1.0) break; /* no row fits better (the rows' other effect, any_row, is set) */
            }
            if (!any_row) {
                int br = 0; /* a Bridge in rows 1..top */
                for (int r = 1; r <= top && s->bridges_up && !br; r++)
                    for (int i = 0; i < s->mlen[r - 1]; i++) if (s->m[r - 1][i] == BRIDGE) { br = 1; break; }
                if (!br) { keep[c] = 0.0; continue; }
            }
            keep[c] = 0.35 + 0.5 * best + (top >= R - 1 ? 0.15 : 0.0);
        }
    }
}

/* GreedyPolicy._shape for a placement (left: the hand after the card and the payment). */
static double shape(const Params *P, const State *s, const Placement *pl, const uint8_t *left, int nleft) {
    int card = pl->card;
    if (KIND[card] == K_BRIDGE) return -P->bridge_penalty;
    int moved = card;
    int row = PL_ROW(pl);
    if (KIND[card] == K_CAMPFIRE) {
        moved = s->m[PL_ROW(pl) - 1][PL_SLOT(pl) - 1];
        row = PL_TO_ROW(pl);
    }
    if (KIND[moved] != K_ASCENT) return 0.0;
    double sc = -P->flex * (double)(max_row(P, VAL[moved]) - row);
    if (PL_ONTO(pl)) sc += P->replace_bonus;
    if (row < P->rows && PL_SLOT(pl) < row_length(P, row) && !PL_ONTO(pl)) {
        int near = 6, found = 0;
        for (int i = 0; i < nleft; i++) {
            int c = left[i];
            if (KIND[c] != K_ASCENT) continue;
            int d = abs(VAL[c] - VAL[moved]);
            if (!found || d < near) { near = d; found = 1; }
        }
        double x = 1 - (double)near / 4;
        sc += 0.1 * (x > 0.0 ? x : 0.0);
    }
    return sc;
}

/* Stable sort of the hand by keep value (sorted(hand, key=keep)). */
static int hand_by_keep(const State *s, const double *keep, uint8_t *out) {
    int p = s->to_move, n = s->hlen[p];
    for (int i = 0; i < n; i++) {
        uint8_t c = s->hand[p][i];
        int j = i;
        while (j > 0 && keep[out[j - 1]] > keep[c]) { out[j] = out[j - 1]; j--; }
        out[j] = c;
    }
    return n;
}

static Placement PL[MAXPL];

/* GreedyPolicy.ranked before its final sort: the scored entries in insertion order.
 * Returns their number, or -1 when the Summit's entry (E[0]) alone is the answer. */
static int scored_entries(const Params *P, const State *s, Entry *E, int maxe) {
    double keep[NTYPES];
    keep_values(P, s, keep);
    int bridges_up = s->bridges_up;
    int npl = generate_placements(P, s, PL, 0);
    int cheap = 0;
    for (int i = 0; i < npl; i++)
        if (PL[i].cost <= 1 && KIND[PL[i].card] != K_BRIDGE) { cheap = 1; break; }
    uint8_t sorted_hand[MAXHAND];
    int nh = hand_by_keep(s, keep, sorted_hand);
    int ne = 0;
    /* The Python `seen` set never fires: candidate targets are distinct per card. */
    for (int i = 0; i < npl; i++) {
        const Placement *pl = &PL[i];
        if (KIND[pl->card] == K_SUMMIT) {
            E[0].score = 1e9;
            E[0].mv = (CMove){M_PLACE, pl->card, PL_ROW(pl), PL_SLOT(pl), 0, 0, 0, {0}};
            return -1;
        }
        if (KIND[pl->card] == K_BRIDGE && (!P->place_bridges || cheap || bridges_up >= P->max_bridges
                                           || PL_ROW(pl) > P->rows - 2))
            continue;
        /* rest = hand minus one copy of the card, by keep value (stable) */
        uint8_t rest[MAXHAND];
        int nr = 0, removed = 0;
        for (int j = 0; j < nh; j++) {
            if (!removed && sorted_hand[j] == pl->card) { removed = 1; continue; }
            rest[nr++] = sorted_hand[j];
        }
        double paid = 0.0;
        int k = 0;
        CMove mv = {KIND[pl->card] == K_CAMPFIRE ? M_CAMPFIRE : M_PLACE, pl->card, PL_ROW(pl), PL_SLOT(pl),
                    PL_TO_ROW(pl), PL_TO_SLOT(pl), pl->cost, {0}};
        for (k = 0; k < pl->cost; k++) { mv.disc[k] = rest[k]; paid = k ? paid + keep[rest[k]] : keep[rest[k]]; }
        double score = P->slot_value - keep[pl->card] - paid;
        score += shape(P, s, pl, rest + pl->cost, nr - pl->cost);
        if (ne < maxe) { E[ne].score = score; E[ne].mv = mv; ne++; }
    }
    if (nh >= 2) {
        double sum = keep[sorted_hand[0]] + keep[sorted_hand[1]];
        if (ne < maxe) {
            E[ne].score = -sum;
            E[ne].mv = (CMove){M_DISCARD, -1, 0, 0, 0, 0, 2, {sorted_hand[0], sorted_hand[1]}};
            ne++;
        }
    }
    if (ne == 0 && npl > 0) {
        int bi = 0;
        for (int i = 1; i < npl; i++) if (PL[i].cost < PL[bi].cost) bi = i;
        const Placement *pl = &PL[bi];
        uint8_t rest[MAXHAND];
        int nr = 0, removed = 0;
        for (int j = 0; j < nh; j++) {
            if (!removed && sorted_hand[j] == pl->card) { removed = 1; continue; }
            rest[nr++] = sorted_hand[j];
        }
        CMove mv = {KIND[pl->card] == K_CAMPFIRE ? M_CAMPFIRE : M_PLACE, pl->card, PL_ROW(pl), PL_SLOT(pl),
                    PL_TO_ROW(pl), PL_TO_SLOT(pl), pl->cost, {0}};
        for (int k = 0; k < pl->cost; k++) mv.disc[k] = rest[k];
        E[0].score = -1.0;
        E[0].mv = mv;
        ne = 1;
    }
    /* never throw the team's last Summit while another move exists */
    int last = 0; /* a card of keep >= LAST_SUMMIT in hand: else every entry is safe */
    for (int j = 0; j < nh; j++) if (keep[sorted_hand[j]] >= P->last_summit) { last = 1; break; }
    if (!last) return ne;
    int nsafe = 0;
    int safe_flag[MAXPL + 2];
    for (int i = 0; i < ne; i++) {
        int ok = 1;
        for (int k = 0; k < E[i].mv.ndisc; k++) if (keep[(uint8_t)E[i].mv.disc[k]] >= P->last_summit) { ok = 0; break; }
        safe_flag[i] = ok;
        nsafe += ok;
    }
    if (nsafe && nsafe < ne) {
        int j = 0;
        for (int i = 0; i < ne; i++) if (safe_flag[i]) E[j++] = E[i];
        ne = j;
    }
    return ne;
}

static Entry ENT[MAXPL + 2];

/* ranked(): entries sorted best first (stable). Returns the number. */
static int ranked(const Params *P, const State *s, Entry *E) {
    int ne = scored_entries(P, s, E, MAXPL + 2);
    if (ne < 0) return 1;
    for (int i = 1; i < ne; i++) {
        Entry e = E[i];
        int j = i;
        while (j > 0 && E[j - 1].score < e.score) { E[j] = E[j - 1]; j--; }
        E[j] = e;
    }
    return ne;
}

/* ranked(limit=1)[0]: the first entry of the highest score. Returns 0 if none. */
static int best_move(const Params *P, const State *s, CMove *mv) {
    int ne = scored_entries(P, s, ENT, MAXPL + 2);
    if (ne < 0) { *mv = ENT[0].mv; return 1; }
    if (ne == 0) return 0;
    int b = 0;
    for (int i = 1; i < ne; i++) if (ENT[i].score > ENT[b].score) b = i;
    *mv = ENT[b].mv;
    return 1;
}

/* ---- applying moves (Game._apply, Game._draw) ------------------------------------------- */

static void put_out(State *s, int c) {
    s->out[s->nout++] = (uint8_t)c;
    if (c == SUMMIT) s->summits_out++;
}

/* Game._apply (without its checks): the hand, the cards out, the mountain (rules_core.h's
 * rc_place), the draw (rc_draw), the turn. */
static void apply_move(const Params *P, State *s, const CMove *mv) {
    int p = s->to_move;
    for (int k = 0; k < mv->ndisc; k++) {
        rc_hand_remove(s->hand[p], &s->hlen[p], (uint8_t)mv->disc[k]);
        put_out(s, (uint8_t)mv->disc[k]);
    }
    if (mv->kind != M_DISCARD) {
        int card = (uint8_t)mv->card;
        rc_hand_remove(s->hand[p], &s->hlen[p], card);
        uint8_t *rows = &s->m[0][0];
        int r = mv->row - 1;
        if (mv->kind == M_CAMPFIRE) {
            rc_place(rows, MAXSLOTS + 1, s->mlen, RC_CAMPFIRE_MOVE, card, r, mv->slot - 1, mv->to_row - 1);
        } else if (mv->slot <= s->mlen[r]) { /* onto a Bridge: it leaves the game */
            put_out(s, rc_place(rows, MAXSLOTS + 1, s->mlen, RC_ONTO_BRIDGE, card, r, mv->slot - 1, 0));
            s->bridges_up--;
        } else { /* the next slot of a row, or the Summit onto the peak (row rows+1) */
            rc_place(rows, MAXSLOTS + 1, s->mlen, RC_PLACE, card, r, 0, 0);
            if (card == BRIDGE) s->bridges_up++;
        }
    }
    s->dpos[p] = (int16_t)rc_draw(s->hand[p], &s->hlen[p], P->hand_size, s->deck, s->dpos[p], s->dend[p]);
    s->turn++;
    if (!is_won(P, s)) s->to_move = (p + 1) % P->players;
}

/* Greedy in every seat to the end: returns 1 for a win, 0 for a loss. */
static int playout(const Params *P, State *s) {
    int oc;
    CMove mv;
    while ((oc = outcome(P, s)) == 0) {
        if (!best_move(P, s, &mv)) return 0; /* cannot happen: outcome said a move exists */
        apply_move(P, s, &mv);
    }
    return oc == 1;
}

/* ---- PRNG: splitmix64, and the fair shuffle ---------------------------------------------- */

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t next64(uint64_t *st) {
    *st += 0x9E3779B97F4A7C15ULL;
    return mix64(*st);
}

/* Uniform in [0, bound) without modulo bias (rejection below 2**64 mod bound). */
static inline uint64_t below(uint64_t *st, uint64_t bound) {
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t x = next64(st);
        if (x >= threshold) return x % bound;
    }
}

/* Fisher–Yates, from the last position down (as bots.fastplay._py_shuffle). */
static void shuffle(uint8_t *a, int n, uint64_t seed) {
    uint64_t st = mix64(seed);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(&st, (uint64_t)(i + 1));
        uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

static inline uint64_t world_seed(uint64_t seed, uint64_t i) {
    return mix64(seed ^ mix64(i + 0x632BE59BD9B4E019ULL));
}

/* The playout with departures: as playout(), except that a seat p with bit p of `seats` set
 * plays, at chance `rate`, a move drawn uniformly from the blueprint's best `top` (ranked()),
 * the draws from the splitmix64 stream of `seed`. Returns 1 for a win, 0 for a loss. */
static int playout_departing(const Params *P, State *s, double rate, int top, unsigned seats, uint64_t seed) {
    int oc;
    CMove mv;
    uint64_t st = mix64(seed);
    while ((oc = outcome(P, s)) == 0) {
        int p = s->to_move;
        if (((seats >> p) & 1u) && (double)(next64(&st) >> 11) * 0x1.0p-53 < rate) {
            int ne = ranked(P, s, ENT);
            if (ne <= 0) return 0; /* cannot happen: outcome said a move exists */
            mv = ENT[below(&st, (uint64_t)(ne < top ? ne : top))].mv;
        } else if (!best_move(P, s, &mv)) {
            return 0;
        }
        apply_move(P, s, &mv);
    }
    return oc == 1;
}

/* ---- Python objects ------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Params P;
    State s;
} WorldObject;

static PyTypeObject WorldType;

static int parse_params(PyObject *t, Params *P) {
    /* (rows, hand_size, summits, players, look_through, replace_left, campfire_free,
        slot_value, bridge_penalty, last_summit, flex, replace_bonus, max_bridges, place_bridges) */
    if (!PyArg_ParseTuple(t, "iiiiiiidddddii", &P->rows, &P->hand_size, &P->summits, &P->players,
                          &P->look_through, &P->replace_left, &P->campfire_free, &P->slot_value,
                          &P->bridge_penalty, &P->last_summit, &P->flex, &P->replace_bonus,
                          &P->max_bridges, &P->place_bridges))
        return -1;
    if (P->rows < 2 || P->rows > MAXROWS || P->hand_size < 1 || P->hand_size > MAXHAND
        || P->players < 1 || P->players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "rules outside the compiled engine's sizes");
        return -1;
    }
    for (int c = 0; c < NTYPES; c++)
        P->maxrow[c] = (int8_t)(KIND[c] == K_ASCENT ? max_row(P, VAL[c]) : 0);
    for (int r = 0; r < P->rows; r++) P->rowlen[r] = row_length(P, r + 1);
    return 0;
}

static int card_of(PyObject *o) {
    long c = PyLong_AsLong(o);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c >= NTYPES) { PyErr_SetString(PyExc_ValueError, "card id out of range"); return -1; }
    return (int)c;
}

/* Read a sequence of card ids into buf (at most cap); returns the count or -1. */
static int read_cards(PyObject *seq, uint8_t *buf, int cap) {
    PyObject *f = PySequence_Fast(seq, "expected a sequence of card ids");
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > cap) { Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "too many cards"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = card_of(PySequence_Fast_GET_ITEM(f, i));
        if (c < 0) { Py_DECREF(f); return -1; }
        buf[i] = (uint8_t)c;
    }
    Py_DECREF(f);
    return (int)n;
}

static void sort_ids(uint8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t c = a[i];
        int j = i;
        while (j > 0 && a[j - 1] > c) { a[j] = a[j - 1]; j--; }
        a[j] = c;
    }
}

/* The counters kept by apply_move: Summits out, Bridges on the mountain. */
static void recount(State *s) {
    s->summits_out = 0;
    for (int i = 0; i < s->nout; i++) s->summits_out += s->out[i] == SUMMIT;
    s->bridges_up = 0;
    for (int r = 0; r <= MAXROWS; r++)
        for (int i = 0; i < s->mlen[r]; i++) s->bridges_up += s->m[r][i] == BRIDGE;
}

/* World(params, mountain, hands, decks, out, to_move, turn) */
static int World_init(WorldObject *self, PyObject *args, PyObject *kw) {
    PyObject *params, *mountain, *hands, *decks, *out;
    int to_move, turn;
    (void)kw;
    if (!PyArg_ParseTuple(args, "OOOOOii", &params, &mountain, &hands, &decks, &out, &to_move, &turn))
        return -1;
    if (parse_params(params, &self->P) < 0) return -1;
    State *s = &self->s;
    memset(s, 0, sizeof *s);
    Params *P = &self->P;
    if (to_move < 0 || to_move >= P->players || turn < 0) {
        PyErr_SetString(PyExc_ValueError, "to_move must be a seat (0..players-1) and turn >= 0");
        return -1;
    }
    if (PySequence_Size(mountain) > P->rows + 1 || PySequence_Size(hands) != P->players
        || PySequence_Size(decks) != P->players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "mountain, hands or decks of the wrong size");
        return -1;
    }
    for (int r = 0; r < PySequence_Size(mountain); r++) {
        PyObject *row = PySequence_GetItem(mountain, r);
        if (!row) return -1;
        int n = read_cards(row, s->m[r], MAXSLOTS);
        Py_DECREF(row);
        if (n < 0) return -1;
        s->mlen[r] = (uint8_t)n;
    }
    int k = 0;
    for (int p = 0; p < P->players; p++) {
        PyObject *h = PySequence_GetItem(hands, p);
        if (!h) return -1;
        int n = read_cards(h, s->hand[p], MAXHAND);
        Py_DECREF(h);
        if (n < 0) return -1;
        s->hlen[p] = (uint8_t)n;
        sort_ids(s->hand[p], n);
        PyObject *d = PySequence_GetItem(decks, p);
        if (!d) return -1;
        n = read_cards(d, s->deck + k, MAXCARDS - k);
        Py_DECREF(d);
        if (n < 0) return -1;
        s->dpos[p] = (int16_t)k;
        s->dend[p] = (int16_t)(k + n);
        k += n;
    }
    int n = read_cards(out, s->out, MAXCARDS);
    if (n < 0) return -1;
    s->nout = (int16_t)n;
    recount(s);
    s->to_move = to_move;
    s->turn = turn;
    return 0;
}

static WorldObject *new_world(const Params *P, const State *s) {
    WorldObject *w = PyObject_New(WorldObject, &WorldType);
    if (!w) return NULL;
    w->P = *P;
    w->s = *s;
    return w;
}

static PyObject *World_copy(WorldObject *self, PyObject *Py_UNUSED(a)) {
    return (PyObject *)new_world(&self->P, &self->s);
}

static PyObject *World_outcome(WorldObject *self, PyObject *Py_UNUSED(a)) {
    return PyLong_FromLong(outcome(&self->P, &self->s));
}

static PyObject *move_tuple(const CMove *mv) {
    PyObject *d = PyTuple_New(mv->ndisc);
    if (!d) return NULL;
    for (int k = 0; k < mv->ndisc; k++) PyTuple_SET_ITEM(d, k, PyLong_FromLong((uint8_t)mv->disc[k]));
    return Py_BuildValue("(iiiiiiN)", mv->kind, mv->kind == M_DISCARD ? -1 : (uint8_t)mv->card,
                         mv->row, mv->slot, mv->to_row, mv->to_slot, d);
}

static int parse_move(PyObject *t, CMove *mv) {
    int kind, card, row, slot, to_row, to_slot;
    PyObject *disc;
    if (!PyArg_ParseTuple(t, "iiiiiiO", &kind, &card, &row, &slot, &to_row, &to_slot, &disc)) return -1;
    if (kind < 0 || kind > 2 || card < -1 || card >= NTYPES || row < 0 || row > MAXROWS + 1 || slot < 0
        || slot > MAXSLOTS || to_row < 0 || to_row > MAXROWS || to_slot < 0 || to_slot > MAXSLOTS) {
        PyErr_SetString(PyExc_ValueError, "move fields out of range");
        return -1;
    }
    uint8_t buf[MAXHAND];
    int n = read_cards(disc, buf, MAXHAND);
    if (n < 0) return -1;
    memset(mv, 0, sizeof *mv);
    mv->kind = (int8_t)kind; mv->card = (int8_t)card; mv->row = (int8_t)row; mv->slot = (int8_t)slot;
    mv->to_row = (int8_t)to_row; mv->to_slot = (int8_t)to_slot; mv->ndisc = (int8_t)n;
    for (int k = 0; k < n; k++) mv->disc[k] = (int8_t)buf[k];
    return 0;
}

/* A move the engine can apply without writing out of its arrays: a known kind, the card and
 * the discards in the hand of the player to move, the row/slot (and a Campfire's to_row/
 * to_slot) on the mountain where the apply step reads and writes. Not the legality check of
 * the model (costs, colours, heights, support are not looked at). Returns 0 or sets
 * ValueError and returns -1. */
static int check_move_bounds(const Params *P, const State *s, const CMove *mv) {
    int p = s->to_move;
    int count[NTYPES] = {0};
    for (int h = 0; h < s->hlen[p]; h++) count[s->hand[p][h]]++;
    if (is_won(P, s)) goto bad;
    if (mv->kind < M_DISCARD || mv->kind > M_CAMPFIRE) goto bad;
    for (int k = 0; k < mv->ndisc; k++) {
        int c = (uint8_t)mv->disc[k];
        if (c >= NTYPES || count[c]-- <= 0) goto bad;
    }
    if (mv->kind == M_DISCARD) return mv->ndisc == 2 ? 0 : (PyErr_SetString(PyExc_ValueError, "a discard turn throws 2 cards"), -1);
    int c = (uint8_t)mv->card;
    if (mv->card < 0 || c >= NTYPES || count[c] <= 0) goto bad;
    if (mv->row < 1 || mv->row > P->rows + 1) goto bad;
    int n = s->mlen[mv->row - 1];
    if (mv->kind == M_CAMPFIRE) {
        if (KIND[c] != K_CAMPFIRE || mv->slot < 1 || mv->slot > n) goto bad;
        if (mv->to_row <= mv->row || mv->to_row > P->rows) goto bad;
        if (s->mlen[mv->to_row - 1] >= row_length(P, mv->to_row)) goto bad;
        return 0;
    }
    if (mv->slot < 1 || mv->slot > n + 1 || mv->slot > row_length(P, mv->row)) goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "not a move of the player to move on this mountain");
    return -1;
}

/* ranked(limit=0) -> [(score, move tuple), ...] best first; limit 0 is all */
static PyObject *World_ranked(WorldObject *self, PyObject *args) {
    int limit = 0;
    if (!PyArg_ParseTuple(args, "|i", &limit)) return NULL;
    int ne = ranked(&self->P, &self->s, ENT);
    if (limit > 0 && ne > limit) ne = limit;
    PyObject *lst = PyList_New(ne);
    if (!lst) return NULL;
    for (int i = 0; i < ne; i++) {
        PyObject *m = move_tuple(&ENT[i].mv);
        if (!m) { Py_DECREF(lst); return NULL; }
        PyList_SET_ITEM(lst, i, Py_BuildValue("(dN)", ENT[i].score, m));
    }
    return lst;
}

static PyObject *World_push(WorldObject *self, PyObject *arg) {
    CMove mv;
    if (parse_move(arg, &mv) < 0 || check_move_bounds(&self->P, &self->s, &mv) < 0) return NULL;
    apply_move(&self->P, &self->s, &mv);
    Py_RETURN_NONE;
}

/* placements() -> [(card, row, slot, cost, to_row, to_slot, onto_bridge)]: the legal
 * placements of the player to move with their costs (Game.generate_placements), in
 * generation order; for the move-generation corpus (tests/test_perft.py) */
static PyObject *World_placements(WorldObject *self, PyObject *Py_UNUSED(a)) {
    int n = generate_placements(&self->P, &self->s, PL, 0);
    PyObject *lst = PyList_New(n);
    if (!lst) return NULL;
    for (int i = 0; i < n; i++) {
        const Placement *pl = &PL[i];
        PyObject *t = Py_BuildValue("(iiiiiii)", (int)(uint8_t)pl->card, PL_ROW(pl), PL_SLOT(pl), pl->cost,
                                    PL_TO_ROW(pl), PL_TO_SLOT(pl), PL_ONTO(pl));
        if (!t) { Py_DECREF(lst); return NULL; }
        PyList_SET_ITEM(lst, i, t);
    }
    return lst;
}

/* playout(rate=0.0, top=3, seats=0, seed=0): greedy to the end, except that the seats in the
 * bit mask `seats` (bit p: seat p, 0-based) depart at chance `rate`: such a move is drawn
 * uniformly from the blueprint's best `top` (bots.people's `plausible` stand-in), from the
 * splitmix64 stream of `seed`. rate 0 (or no seat) is the greedy playout exactly. */
static PyObject *World_playout(WorldObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"rate", "top", "seats", "seed", NULL};
    double rate = 0.0;
    int top = 3;
    unsigned int seats = 0;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|diIK", names, &rate, &top, &seats, &seed)) return NULL;
    if (!(rate >= 0.0 && rate <= 1.0) || top < 1) {
        PyErr_SetString(PyExc_ValueError, "playout: rate must be in [0, 1] and top >= 1");
        return NULL;
    }
    int won = (rate > 0.0 && seats)
        ? playout_departing(&self->P, &self->s, rate, top, seats, seed)
        : playout(&self->P, &self->s);
    return Py_BuildValue("(Oi)", won ? Py_True : Py_False, self->s.nout);
}

static PyObject *World_playout_moves(WorldObject *self, PyObject *Py_UNUSED(a)) {
    State s = self->s;
    PyObject *lst = PyList_New(0);
    if (!lst) return NULL;
    CMove mv;
    while (outcome(&self->P, &s) == 0) {
        if (!best_move(&self->P, &s, &mv)) break;
        PyObject *m = move_tuple(&mv);
        if (!m || PyList_Append(lst, m) < 0) { Py_XDECREF(m); Py_DECREF(lst); return NULL; }
        Py_DECREF(m);
        apply_move(&self->P, &s, &mv);
    }
    return lst;
}

static PyObject *ids_list(const uint8_t *a, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(l, i, PyLong_FromLong(a[i]));
    return l;
}

/* state() -> (mountain, hands, decks, out, to_move, turn) as lists of card ids */
static PyObject *World_state(WorldObject *self, PyObject *Py_UNUSED(a)) {
    const State *s = &self->s;
    const Params *P = &self->P;
    PyObject *m = PyList_New(P->rows + 1), *h = PyList_New(P->players), *d = PyList_New(P->players);
    if (!m || !h || !d) { Py_XDECREF(m); Py_XDECREF(h); Py_XDECREF(d); return NULL; }
    for (int r = 0; r <= P->rows; r++) PyList_SET_ITEM(m, r, ids_list(s->m[r], s->mlen[r]));
    for (int p = 0; p < P->players; p++) {
        PyList_SET_ITEM(h, p, ids_list(s->hand[p], s->hlen[p]));
        PyList_SET_ITEM(d, p, ids_list(s->deck + s->dpos[p], s->dend[p] - s->dpos[p]));
    }
    return Py_BuildValue("(NNNNii)", m, h, d, ids_list(s->out, s->nout), s->to_move, s->turn);
}

static PyObject *World_get_to_move(WorldObject *self, void *c) { (void)c; return PyLong_FromLong(self->s.to_move); }
static PyObject *World_get_turn(WorldObject *self, void *c) { (void)c; return PyLong_FromLong(self->s.turn); }
static PyObject *World_get_players(WorldObject *self, void *c) { (void)c; return PyLong_FromLong(self->P.players); }

static PyGetSetDef World_getset[] = {
    {"to_move", (getter)World_get_to_move, NULL, "0-based seat to move", NULL},
    {"turn", (getter)World_get_turn, NULL, "moves made", NULL},
    {"players", (getter)World_get_players, NULL, "players", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef World_methods[] = {
    {"copy", (PyCFunction)World_copy, METH_NOARGS, "An independent copy."},
    {"outcome", (PyCFunction)World_outcome, METH_NOARGS, "0 going on, 1 win, 2 loss."},
    {"ranked", (PyCFunction)World_ranked, METH_VARARGS, "Greedy's scored moves, best first."},
    {"push", (PyCFunction)World_push, METH_O, "Apply a legal move tuple (unchecked)."},
    {"placements", (PyCFunction)World_placements, METH_NOARGS, "Legal placements with costs."},
    {"playout", (PyCFunction)(void (*)(void))World_playout, METH_VARARGS | METH_KEYWORDS,
     "Greedy to the end, some seats departing: (won, cards out)."},
    {"playout_moves", (PyCFunction)World_playout_moves, METH_NOARGS, "The playout's moves (world unchanged)."},
    {"state", (PyCFunction)World_state, METH_NOARGS, "(mountain, hands, decks, out, to_move, turn)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WorldType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bots._playout.World",
    .tp_basicsize = sizeof(WorldObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A position of the compiled playout engine.",
    .tp_methods = World_methods,
    .tp_getset = World_getset,
    .tp_init = (initproc)World_init,
    .tp_new = PyType_GenericNew,
};

/* ---- Sampler: the hidden places of an observation -------------------------------------- */

typedef struct {
    PyObject_HEAD
    Params P;
    State base;          /* mountain, own hand, obs.out, to_move, turn; other hands/decks empty */
    int seat;
    int hand_sizes[MAXP], deck_sizes[MAXP];
    uint8_t unseen[MAXCARDS];
    int nunseen;
} SamplerObject;

static PyTypeObject SamplerType;

/* Sampler(params, mountain, hand, out_seen, unseen, seat, hand_sizes, deck_sizes, turn) */
static int Sampler_init(SamplerObject *self, PyObject *args, PyObject *kw) {
    PyObject *params, *mountain, *hand, *out, *unseen, *hs, *ds;
    int seat, turn;
    (void)kw;
    if (!PyArg_ParseTuple(args, "OOOOOiOOi", &params, &mountain, &hand, &out, &unseen, &seat, &hs, &ds, &turn))
        return -1;
    if (parse_params(params, &self->P) < 0) return -1;
    Params *P = &self->P;
    State *s = &self->base;
    memset(s, 0, sizeof *s);
    if (seat < 0 || seat >= P->players || PySequence_Size(mountain) > P->rows + 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad seat or mountain");
        return -1;
    }
    for (int r = 0; r < PySequence_Size(mountain); r++) {
        PyObject *row = PySequence_GetItem(mountain, r);
        if (!row) return -1;
        int n = read_cards(row, s->m[r], MAXSLOTS);
        Py_DECREF(row);
        if (n < 0) return -1;
        s->mlen[r] = (uint8_t)n;
    }
    int n = read_cards(hand, s->hand[seat], MAXHAND);
    if (n < 0) return -1;
    s->hlen[seat] = (uint8_t)n;
    sort_ids(s->hand[seat], n);
    n = read_cards(out, s->out, MAXCARDS);
    if (n < 0) return -1;
    s->nout = (int16_t)n;
    n = read_cards(unseen, self->unseen, MAXCARDS);
    if (n < 0) return -1;
    self->nunseen = n;
    s->to_move = seat;
    s->turn = turn;
    self->seat = seat;
    int total = 0;
    for (int p = 0; p < P->players; p++) {
        PyObject *a = PySequence_GetItem(hs, p), *b = PySequence_GetItem(ds, p);
        if (!a || !b) { Py_XDECREF(a); Py_XDECREF(b); return -1; }
        self->hand_sizes[p] = (int)PyLong_AsLong(a);
        self->deck_sizes[p] = (int)PyLong_AsLong(b);
        Py_DECREF(a); Py_DECREF(b);
        if (PyErr_Occurred()) return -1;
        if (self->hand_sizes[p] < 0 || self->hand_sizes[p] > MAXHAND || self->deck_sizes[p] < 0) {
            PyErr_SetString(PyExc_ValueError, "bad hand or deck size");
            return -1;
        }
        if (p != seat) total += self->hand_sizes[p];
        total += self->deck_sizes[p];
    }
    if (total > self->nunseen || s->nout + self->nunseen - total > MAXCARDS) {
        PyErr_SetString(PyExc_ValueError, "fewer unseen cards than hidden places");
        return -1;
    }
    return 0;
}

/* world_from_order: others' hands (player order), decks top first, the rest out. */
static void build_world(const SamplerObject *S, const uint8_t *order, State *s) {
    *s = S->base;
    int k = 0;
    for (int p = 0; p < S->P.players; p++) {
        if (p == S->seat) continue;
        int n = S->hand_sizes[p];
        memcpy(s->hand[p], order + k, (size_t)n);
        sort_ids(s->hand[p], n);
        s->hlen[p] = (uint8_t)n;
        k += n;
    }
    int d = 0;
    for (int p = 0; p < S->P.players; p++) {
        int n = S->deck_sizes[p];
        memcpy(s->deck + d, order + k, (size_t)n);
        s->dpos[p] = (int16_t)d;
        s->dend[p] = (int16_t)(d + n);
        d += n;
        k += n;
    }
    for (; k < S->nunseen; k++) s->out[s->nout++] = order[k];
    recount(s);
}

static PyObject *Sampler_draw(SamplerObject *self, PyObject *arg) {
    uint64_t seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    uint8_t order[MAXCARDS];
    memcpy(order, self->unseen, (size_t)self->nunseen);
    shuffle(order, self->nunseen, seed);
    State s;
    build_world(self, order, &s);
    return (PyObject *)new_world(&self->P, &s);
}

static PyObject *Sampler_from_order(SamplerObject *self, PyObject *arg) {
    uint8_t order[MAXCARDS];
    int n = read_cards(arg, order, MAXCARDS);
    if (n < 0) return NULL;
    if (n != self->nunseen) { PyErr_SetString(PyExc_ValueError, "order must hold every unseen card"); return NULL; }
    State s;
    build_world(self, order, &s);
    return (PyObject *)new_world(&self->P, &s);
}

/* evaluate(moves, worlds, seed) -> [(wins, plays, cards out summed), ...] */
static PyObject *Sampler_evaluate(SamplerObject *self, PyObject *args) {
    PyObject *moves;
    int worlds;
    PyObject *seedobj;
    if (!PyArg_ParseTuple(args, "OiO", &moves, &worlds, &seedobj)) return NULL;
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seedobj);
    if (PyErr_Occurred()) return NULL;
    PyObject *f = PySequence_Fast(moves, "expected a sequence of move tuples");
    if (!f) return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(f);
    CMove *mv = PyMem_Malloc(sizeof(CMove) * (size_t)(nm ? nm : 1));
    long *res = PyMem_Calloc((size_t)(nm ? nm : 1) * 2, sizeof(long));
    if (!mv || !res) { Py_DECREF(f); PyMem_Free(mv); PyMem_Free(res); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < nm; i++)
        if (parse_move(PySequence_Fast_GET_ITEM(f, i), &mv[i]) < 0
            || check_move_bounds(&self->P, &self->base, &mv[i]) < 0) {
            Py_DECREF(f); PyMem_Free(mv); PyMem_Free(res); return NULL;
        }
    Py_DECREF(f);
    for (int w = 0; w < worlds; w++) {
        uint8_t order[MAXCARDS];
        memcpy(order, self->unseen, (size_t)self->nunseen);
        shuffle(order, self->nunseen, world_seed(seed, (uint64_t)w));
        State base;
        build_world(self, order, &base);
        for (Py_ssize_t i = 0; i < nm; i++) {
            State s = base;
            apply_move(&self->P, &s, &mv[i]);
            res[2 * i] += playout(&self->P, &s);
            res[2 * i + 1] += s.nout;
        }
    }
    PyMem_Free(mv);
    PyObject *lst = PyList_New(nm);
    if (!lst) { PyMem_Free(res); return NULL; }
    for (Py_ssize_t i = 0; i < nm; i++)
        PyList_SET_ITEM(lst, i, Py_BuildValue("(lil)", res[2 * i], worlds, res[2 * i + 1]));
    PyMem_Free(res);
    return lst;
}

static PyMethodDef Sampler_methods[] = {
    {"draw", (PyCFunction)Sampler_draw, METH_O, "The world of a fair shuffle seeded by seed."},
    {"from_order", (PyCFunction)Sampler_from_order, METH_O, "The world of a given order of the unseen cards."},
    {"evaluate", (PyCFunction)Sampler_evaluate, METH_VARARGS, "Each move over the same sampled worlds."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SamplerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bots._playout.Sampler",
    .tp_basicsize = sizeof(SamplerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The hidden places of an observation and its unseen cards.",
    .tp_methods = Sampler_methods,
    .tp_init = (initproc)Sampler_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *mod_world_seed(PyObject *m, PyObject *args) {
    PyObject *a, *b;
    (void)m;
    if (!PyArg_ParseTuple(args, "OO", &a, &b)) return NULL;
    uint64_t s = PyLong_AsUnsignedLongLongMask(a), i = PyLong_AsUnsignedLongLongMask(b);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromUnsignedLongLong(world_seed(s, i));
}

static PyMethodDef module_methods[] = {
    {"world_seed", mod_world_seed, METH_VARARGS, "The seed of world i of evaluate(seed)."},
    {NULL, NULL, 0, NULL},
};

#ifndef ASCENT_PLAYOUT_SOURCE
#define ASCENT_PLAYOUT_SOURCE ""
#endif

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "bots._playout", "Compiled playout engine (see bots/fastplay.py).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__playout(void) {
    for (int c = 0; c < NTYPES; c++) {
        if (c < 60) { KIND[c] = K_ASCENT; VAL[c] = c / 5 + 1; COL[c] = c % 5; }
        else if (c < 65) { KIND[c] = K_CAMPFIRE; VAL[c] = 0; COL[c] = c - 60; }
        else { KIND[c] = c == BRIDGE ? K_BRIDGE : K_SUMMIT; VAL[c] = 0; COL[c] = -1; }
    }
    for (int lt = 0; lt < 2; lt++) {
        REF_RULES[lt].kind = KIND;
        REF_RULES[lt].value = VAL;
        REF_RULES[lt].colour = COL;
        REF_RULES[lt].bridge = BRIDGE;
        REF_RULES[lt].look_through = lt;
    }
    if (PyType_Ready(&WorldType) < 0 || PyType_Ready(&SamplerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&WorldType);
    Py_INCREF(&SamplerType);
    PyModule_AddObject(m, "World", (PyObject *)&WorldType);
    PyModule_AddObject(m, "Sampler", (PyObject *)&SamplerType);
    /* the digest of the sources setup.py built this from: bots.fastplay checks it */
    PyModule_AddStringConstant(m, "SOURCE_HASH", ASCENT_PLAYOUT_SOURCE);
    return m;
}
