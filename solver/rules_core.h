/* solver/rules_core.h: the placement rules of Tranquility: The Ascent, once in C.
 *
 * Shared by the compiled search core (solver/_core.c) and the compiled playout engine
 * (bots/_playout.c): which placements of the cards in a hand are legal and what each costs
 * (model/game.py: candidate_targets, why_not, _ascent_cost; solver/state.py: placements).
 * Rulings: R3 (the leftmost empty slot, resting on two cards below), R4 (a card's highest
 * row), R5 (no two neighbours of one colour), R6 (the cost against the nearest non-Campfire
 * card on the left, a Bridge counting as none or looked through), R7 (a Bridge never at a
 * row's end), R8 (onto a Bridge: both neighbours differ, cost max or left), R9 (a Campfire
 * moves a card of its colour to a higher row, paid or free), R10 (the Summit on the peak over
 * full rows and no Bridge). tests/test_perft.py checks both engines against model/ on the
 * move-generation corpus.
 *
 * Both engines keep the mountain as rows of card ids (row 0 the bottom, slot 0 the left,
 * `stride` bytes apart) with their lengths, and describe their card ids by an RCRules. The
 * placements come out in one order: per distinct card of the (sorted) hand, an Ascent card's
 * rows bottom first and then the Bridges it may replace, a Bridge's rows, a Campfire's cards
 * (row-major) times the higher rows, the Summit. Applying a move (R3, R8, R9, R11) is shared
 * as far as the hands, the draws and the mountain go (rc_hand_remove, rc_hand_insert, rc_draw,
 * rc_place, rc_unplace); each engine keeps its own counters around them (the search's
 * remaining cards and Bridges, the playouts' cards out), and only the search takes moves back.
 */
#ifndef ASCENT_RULES_CORE_H
#define ASCENT_RULES_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RC_MAXROWS 8
#define RC_MAXBRIDGES 64 /* more than the inner slots of 8 rows (36) */

enum { RC_ASCENT = 0, RC_CAMPFIRE = 1, RC_BRIDGE = 2, RC_SUMMIT = 3 };
/* placement kinds (the search core's move kinds M_PLACE, M_BRIDGE_REPLACE, M_CAMPFIRE,
 * M_SUMMIT) */
enum { RC_PLACE = 0, RC_ONTO_BRIDGE = 1, RC_CAMPFIRE_MOVE = 2, RC_SUMMIT_PLACE = 4 };

/* An engine's card ids and rule options. */
typedef struct {
    const int8_t *kind;    /* RC_ASCENT .. RC_SUMMIT per card id */
    const int16_t *value;  /* Ascent value (0 otherwise) */
    const int8_t *colour;  /* colour index of Ascent cards and Campfires, -1 otherwise */
    const int8_t *maxrow;  /* Ascent card: min(value, rows) (R4) */
    int bridge;            /* the Bridge's id */
    int R;                 /* rows below the peak */
    const int *rowlen;     /* slots of rows 0..R-1 */
    int look_through;      /* bridge_neighbour=look-through (R6/R7) */
    int bridge_max;        /* bridge_replace_cost=max (R8) */
    int campfire_paid;     /* campfire_move_cost=paid (R9) */
    int colourless;        /* solver.abstraction: colours ignored (R5, R9 relaxed) */
} RCRules;

/* One legal placement: rows and slots 0-based; the Summit is (R, 0); a Campfire's replaced
 * card moves to (r2, s2); cost: the discards owed. */
typedef struct {
    int8_t kind;
    int16_t card;
    int8_t r, s, r2, s2;
    int cost;
} RCPlacement;

/* R6/R8: the value of the nearest non-Campfire card from index i in direction step (-1 left,
 * +1 right) of a row of n cards; -1 when there is none, when a Bridge comes first (unless
 * look-through) or when the row ends. */
static inline int rc_reference(const RCRules *k, const uint8_t *row, int n, int i, int step) {
    while (i >= 0 && i < n) {
        int c = row[i], kd = k->kind[c];
        if (kd == RC_ASCENT) return k->value[c];
        if (kd == RC_BRIDGE && !k->look_through) return -1;
        i += step;
    }
    return -1;
}

/* The cost of value v against a reference (R6): the difference, or 0 with no reference. */
static inline int rc_cost(int v, int ref) { return ref >= 0 ? abs(v - ref) : 0; }

/* The legal placements of `hand` (hl card ids, sorted) on the mountain: rows (R rows of
 * `stride` bytes) with rlen cards each, `peak` 1 when the Summit stands on the peak,
 * n_bridges Bridges on the rows. A placement costs at most hl - 1 (R6: the other cards pay).
 * Writes up to outcap placements to out and returns how many there are (all of them; with
 * stop_at_one, 1 as soon as one is found). */
static int rc_placements(const RCRules *k, const uint8_t *rows, int stride, const int *rlen,
                         int peak, int n_bridges, const uint8_t *hand, int hl,
                         RCPlacement *out, int outcap, int stop_at_one) {
    int R = k->R, n_out = 0, others = hl - 1, nocol = k->colourless;
    /* each row's next slot (R3): open and resting on two cards; its left reference and the
       colour of its left neighbour */
    int open[RC_MAXROWS], ref[RC_MAXROWS], lcol[RC_MAXROWS];
    int rows_full = 1;
    for (int r = 0; r < R; r++) {
        int n = rlen[r];
        const uint8_t *row = rows + (size_t)r * stride;
        if (n < k->rowlen[r]) rows_full = 0;
        open[r] = n < k->rowlen[r] && !(r && rlen[r - 1] < n + 2);
        ref[r] = open[r] ? rc_reference(k, row, n, n - 1, -1) : -1;
        lcol[r] = open[r] && n ? k->colour[row[n - 1]] : -1;
    }
    /* the Bridges on the rows (R8), bottom row first: place, references, neighbours' colours */
    int nbr = 0;
    int8_t br_r[RC_MAXBRIDGES], br_s[RC_MAXBRIDGES];
    int br_lref[RC_MAXBRIDGES], br_rref[RC_MAXBRIDGES], br_lcol[RC_MAXBRIDGES], br_rcol[RC_MAXBRIDGES];
    for (int r = 0; n_bridges && r < R && nbr < RC_MAXBRIDGES; r++) {
        const uint8_t *row = rows + (size_t)r * stride;
        int n = rlen[r];
        for (int sl = 0; sl < n && nbr < RC_MAXBRIDGES; sl++) {
            if (row[sl] != k->bridge) continue;
            br_r[nbr] = (int8_t)r;
            br_s[nbr] = (int8_t)sl;
            br_lref[nbr] = rc_reference(k, row, n, sl - 1, -1);
            br_rref[nbr] = k->bridge_max ? rc_reference(k, row, n, sl + 1, 1) : -1;
            br_lcol[nbr] = sl ? k->colour[row[sl - 1]] : -1;
            br_rcol[nbr] = sl + 1 < n ? k->colour[row[sl + 1]] : -1;
            nbr++;
        }
    }
#define RC_PUSH(K, C, RR, SS, R2, S2, COST)                                              \
    do {                                                                                 \
        if (n_out < outcap) {                                                            \
            out[n_out].kind = (int8_t)(K);                                               \
            out[n_out].card = (int16_t)(C);                                              \
            out[n_out].r = (int8_t)(RR);                                                 \
            out[n_out].s = (int8_t)(SS);                                                 \
            out[n_out].r2 = (int8_t)(R2);                                                \
            out[n_out].s2 = (int8_t)(S2);                                                \
            out[n_out].cost = (COST);                                                    \
        }                                                                                \
        n_out++;                                                                         \
        if (stop_at_one) return n_out;                                                   \
    } while (0)
    int prev = -1;
    for (int hi = 0; hi < hl; hi++) {
        int c = hand[hi];
        if (c == prev) continue;
        prev = c;
        int kd = k->kind[c];
        if (kd == RC_ASCENT) {
            int v = k->value[c], col = k->colour[c], top = k->maxrow[c];
            for (int r = 0; r < top; r++) {
                if (!open[r] || (lcol[r] == col && !nocol)) continue;
                int cost = rc_cost(v, ref[r]);
                if (cost <= others) RC_PUSH(RC_PLACE, c, r, rlen[r], 0, 0, cost);
            }
            for (int i = 0; i < nbr && br_r[i] < top; i++) {
                if ((br_lcol[i] == col || br_rcol[i] == col) && !nocol) continue;
                int cost = rc_cost(v, br_lref[i]), dr = rc_cost(v, br_rref[i]);
                if (dr > cost) cost = dr; /* bridge_max: the greater; left: br_rref is -1 */
                if (cost <= others) RC_PUSH(RC_ONTO_BRIDGE, c, br_r[i], br_s[i], 0, 0, cost);
            }
        } else if (kd == RC_BRIDGE) {
            for (int r = 0; r < R; r++) {
                int n = rlen[r];
                if (!open[r] || n == 0 || n == k->rowlen[r] - 1) continue;
                RC_PUSH(RC_PLACE, c, r, n, 0, 0, 0);
            }
        } else if (kd == RC_CAMPFIRE) {
            int col = k->colour[c];
            for (int r = 0; r < R - 1; r++) {
                const uint8_t *row = rows + (size_t)r * stride;
                for (int sl = 0; sl < rlen[r]; sl++) {
                    int x = row[sl];
                    if (k->kind[x] != RC_ASCENT || (k->colour[x] != col && !nocol)) continue;
                    for (int r2 = r + 1; r2 < k->maxrow[x]; r2++) {
                        if (!open[r2] || (lcol[r2] == k->colour[x] && !nocol)) continue;
                        int cost = k->campfire_paid ? rc_cost(k->value[x], ref[r2]) : 0;
                        if (cost <= others) RC_PUSH(RC_CAMPFIRE_MOVE, c, r, sl, r2, rlen[r2], cost);
                    }
                }
            }
        } else { /* the Summit */
            if (rows_full && !n_bridges && !peak) RC_PUSH(RC_SUMMIT_PLACE, c, R, 0, 0, 0, 0);
        }
    }
#undef RC_PUSH
    return n_out;
}

/* ---- applying a move: hands, draws and the mountain ------------------------------------ */

/* Take one copy of card c out of a sorted hand of *len cards. */
static inline void rc_hand_remove(uint8_t *hand, int *len, int c) {
    int n = *len;
    for (int i = 0; i < n; i++)
        if (hand[i] == c) {
            memmove(hand + i, hand + i + 1, (size_t)(n - i - 1));
            *len = n - 1;
            return;
        }
}

/* Put card c into a sorted hand of *len cards (after its equals). */
static inline void rc_hand_insert(uint8_t *hand, int *len, int c) {
    int i = *len;
    while (i > 0 && hand[i - 1] > c) {
        hand[i] = hand[i - 1];
        i--;
    }
    hand[i] = (uint8_t)c;
    *len += 1;
}

/* R11: draw the top cards of deck[pos..end) into the sorted hand up to hand_size cards;
 * returns the deck position after the cards drawn. */
static inline int rc_draw(uint8_t *hand, int *len, int hand_size, const uint8_t *deck, int pos,
                          int end) {
    while (*len < hand_size && pos < end) rc_hand_insert(hand, len, deck[pos++]);
    return pos;
}

/* R3, R8, R9: put a placement's card on the mountain (rows of `stride` bytes, rlen cards
 * each; rows and slots 0-based). RC_PLACE: into row r's next slot; RC_ONTO_BRIDGE: onto the
 * Bridge at (r, s); RC_CAMPFIRE_MOVE: onto the card at (r, s), which moves to row r2's next
 * slot; RC_SUMMIT_PLACE: nothing here (each engine counts the peak). Returns the card taken
 * off the slot (the Bridge, the moved card) or -1. */
static inline int rc_place(uint8_t *rows, int stride, int *rlen, int kind, int card, int r, int s,
                           int r2) {
    uint8_t *row = rows + (size_t)r * stride;
    int taken = -1;
    if (kind == RC_PLACE) {
        row[rlen[r]++] = (uint8_t)card;
    } else if (kind == RC_ONTO_BRIDGE) {
        taken = row[s];
        row[s] = (uint8_t)card;
    } else if (kind == RC_CAMPFIRE_MOVE) {
        taken = row[s];
        row[s] = (uint8_t)card;
        rows[(size_t)r2 * stride + rlen[r2]++] = (uint8_t)taken;
    }
    return taken;
}

/* Take back rc_place: `taken` is what it returned. */
static inline void rc_unplace(uint8_t *rows, int stride, int *rlen, int kind, int r, int s, int r2,
                              int taken) {
    if (kind == RC_PLACE) {
        rlen[r]--;
    } else if (kind == RC_ONTO_BRIDGE) {
        rows[(size_t)r * stride + s] = (uint8_t)taken;
    } else if (kind == RC_CAMPFIRE_MOVE) {
        rlen[r2]--;
        rows[(size_t)r * stride + s] = (uint8_t)taken;
    }
}

#endif
