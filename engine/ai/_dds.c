/* The double-dummy solver's compiled core: the same search as engine/ai/solver.py.
 *
 * Why C: the expert solves many sampled deals exactly from the first trick, and a full
 * 32-card solve takes seconds in Python.  This file is a line-for-line port of
 * ``Solver`` (fail-soft alpha-beta, a transposition table at trick boundaries, the same
 * move ordering and the same equivalent-card pruning), so the two give the same values;
 * the tests check both against the plain minimax reference.
 *
 * Cards are 0..31 (suit * 8 + rank, ranks 7 8 9 T J Q K A), hands 32-bit masks, a
 * contract code is 0..3 for a trump suit, 4 No Trump, 5 All Trump; a ruleset kind is 0
 * classic, 1 club, 2 bulgarian.  Values are from the maximizing team's side.
 *
 * The GIL is released while searching, so the bot's event loop keeps running while a
 * worker thread thinks; each thread has its own transposition table for that reason.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NT 4
#define AT 5
#define CLASSIC 0
#define CLUB 1
#define INF 10000
#define CAPOT_BONUS 90
#define FULL_MASK 0xFFFFFFFFu /* every card */

/* Cards in a mask.  Inline: built for any x86-64, ``__builtin_popcount`` is a call into
 * libgcc (no POPCNT instruction): 2.4% of a late decision's time, profiled. */
static inline int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

static const int TRUMP_POWER[8] = {0, 1, 6, 4, 7, 2, 3, 5};
static const int PLAIN_POWER[8] = {0, 1, 2, 6, 3, 4, 5, 7};
static const int TRUMP_POINTS[8] = {0, 0, 14, 10, 20, 3, 4, 11};
static const int PLAIN_POINTS[8] = {0, 0, 0, 10, 2, 3, 4, 11};

static int POWER[6][32];
static int POINTS[6][32];
static uint32_t ABOVE[6][32];
static int ORDER[6][4][8]; /* cards of each suit, strongest first */
static int BYTE_POINTS[6][4][256]; /* points of any set of cards of one suit */

static void build_tables(void) {
    for (int code = 0; code < 6; code++) {
        for (int card = 0; card < 32; card++) {
            int suit = card >> 3, rank = card & 7;
            int trump = code == AT || (code < 4 && suit == code);
            int p = trump ? TRUMP_POWER[rank] : PLAIN_POWER[rank];
            POWER[code][card] = p + ((trump && code < 4) ? 8 : 0);
            int pts = trump ? TRUMP_POINTS[rank] : PLAIN_POINTS[rank];
            POINTS[code][card] = code == NT ? 2 * pts : pts;
        }
        for (int card = 0; card < 32; card++) {
            int suit = card >> 3;
            uint32_t m = 0;
            for (int other = suit * 8; other < suit * 8 + 8; other++)
                if (POWER[code][other] > POWER[code][card]) m |= 1u << other;
            ABOVE[code][card] = m;
        }
        for (int suit = 0; suit < 4; suit++)
            for (int set = 0; set < 256; set++) {
                int sum = 0;
                for (int r = 0; r < 8; r++)
                    if (set >> r & 1) sum += POINTS[code][suit * 8 + r];
                BYTE_POINTS[code][suit][set] = sum;
            }
        for (int suit = 0; suit < 4; suit++) {
            int *o = ORDER[code][suit];
            for (int i = 0; i < 8; i++) o[i] = suit * 8 + i;
            for (int i = 1; i < 8; i++) { /* insertion sort, strongest first */
                int c = o[i], j = i - 1;
                while (j >= 0 && POWER[code][o[j]] < POWER[code][c]) {
                    o[j + 1] = o[j];
                    j--;
                }
                o[j + 1] = c;
            }
        }
    }
}

static inline uint32_t suit_mask(int suit) { return 0xFFu << (8 * suit); }

/* -- transposition table ------------------------------------------------------------ */

typedef struct {
    uint32_t h[4];
    uint32_t gen;
    int16_t lo, hi;
    uint8_t meta; /* leader | won << 2 */
    int8_t best;
} Entry;

#define TT_BITS 17 /* 128k entries, 3.5 MB per thread that solves: a world is solved with
                    * a fresh table, and a smaller one stays in the cache (measured 9% more
                    * nodes a second than 512k entries, two decisions at once on 2 cores) */
#define TT_SIZE (1u << TT_BITS)
static __thread Entry *table = NULL;
static __thread uint32_t generation = 0;
static pthread_key_t table_key; /* frees a thread's table when the thread ends */

static inline uint32_t tt_index(const uint32_t h[4], int meta) {
    uint64_t x = ((uint64_t)h[0] << 32 | h[1]) * 0x9E3779B97F4A7C15ull;
    x ^= ((uint64_t)h[2] << 32 | h[3]) * 0xC2B2AE3D27D4EB4Full;
    x ^= (uint64_t)meta * 0x165667B19E3779F9ull;
    x ^= x >> 29;
    return (uint32_t)(x >> (64 - TT_BITS));
}

/* -- search state ------------------------------------------------------------------- */

typedef struct {
    int kind, code, max_team;
    uint32_t hands[4];
    int trick[4];
    int ntrick;
    int leader;
    int won;
    long long nodes, max_nodes;
    int aborted;
} State;

static int winner_index(int code, const int *trick, int n) {
    const int *power = POWER[code];
    int led = trick[0] >> 3, best = 0, key = power[trick[0]];
    for (int i = 1; i < n; i++) {
        int c = trick[i], s = c >> 3;
        if ((s == led || s == code) && power[c] > key) {
            key = power[c];
            best = i;
        }
    }
    return best;
}

static uint32_t legal_mask(int kind, int code, uint32_t hand, const int *trick, int n) {
    if (n == 0) return hand;
    int led = trick[0] >> 3;
    uint32_t follow = hand & suit_mask(led);
    if (follow) {
        if (code == AT || led == code) {
            int top = -1, top_card = trick[0];
            for (int i = 0; i < n; i++) {
                int c = trick[i];
                if ((c >> 3) == led && POWER[code][c] > top) {
                    top = POWER[code][c];
                    top_card = c;
                }
            }
            uint32_t higher = follow & ABOVE[code][top_card];
            return higher ? higher : follow;
        }
        return follow;
    }
    if (code >= NT) return hand;
    uint32_t trumps = hand & suit_mask(code);
    if (!trumps) return hand;
    int w = winner_index(code, trick, n);
    int win_card = trick[w];
    int win_trump = (win_card >> 3) == code;
    int partner_winning = n - w == 2;
    if (kind == CLUB) {
        if (win_trump) {
            uint32_t higher = trumps & ABOVE[code][win_card];
            return higher ? higher : trumps;
        }
        return trumps;
    }
    if (partner_winning) return hand;
    if (win_trump) {
        uint32_t higher = trumps & ABOVE[code][win_card];
        if (higher) return higher;
        return kind == CLASSIC ? trumps : hand;
    }
    return trumps;
}

/* One card per run of equivalent legal cards: same suit, same points, no card held by
 * another seat (or lying on the trick) ranked between them. */
static int class_moves(int code, uint32_t legal, uint32_t others, int *out) {
    int n = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (!(legal & suit_mask(suit))) continue;
        int run_pts = -1;
        for (int i = 0; i < 8; i++) {
            int c = ORDER[code][suit][i];
            uint32_t bit = 1u << c;
            if (others & bit) {
                run_pts = -1;
            } else if ((legal & bit) && POINTS[code][c] != run_pts) {
                out[n++] = c;
                run_pts = POINTS[code][c];
            }
        }
    }
    return n;
}

/* Best-first order, the same keys as solver.py's ``_moves``. */
static void order_moves(const State *s, int *moves, int n, uint32_t others, int hint) {
    int code = s->code, nt = s->ntrick;
    const int *power = POWER[code], *pts = POINTS[code];
    int keys[8];
    if (nt) {
        int w = winner_index(code, s->trick, nt);
        int win_card = s->trick[w], win_suit = win_card >> 3, win_power = power[win_card];
        int trump = code < 4 ? code : -1;
        for (int i = 0; i < n; i++) {
            int c = moves[i], cs = c >> 3;
            int beats = (cs == win_suit && power[c] > win_power) || (cs == trump && trump != win_suit);
            if (nt - w == 2)
                keys[i] = beats * 1000 + (100 - pts[c]); /* partner holds it: smear */
            else if (nt == 3)
                keys[i] = beats ? (100 - pts[c]) * 32 + power[c] : 10000 + pts[c];
            else
                keys[i] = beats ? power[c] : 1000 + pts[c];
        }
    } else {
        for (int i = 0; i < n; i++) {
            int c = moves[i];
            keys[i] = (ABOVE[code][c] & others) ? 1000 + power[c] : 100 - pts[c];
        }
    }
    for (int i = 1; i < n; i++) { /* stable insertion sort (Python's sort is stable) */
        int k = keys[i], m = moves[i], j = i - 1;
        while (j >= 0 && keys[j] > k) {
            keys[j + 1] = keys[j];
            moves[j + 1] = moves[j];
            j--;
        }
        keys[j + 1] = k;
        moves[j + 1] = m;
    }
    if (hint >= 0) {
        for (int i = 0; i < n; i++) {
            if (moves[i] == hint) {
                for (int j = i; j > 0; j--) moves[j] = moves[j - 1];
                moves[0] = hint;
                break;
            }
        }
    }
}

static inline int capot_value(const State *s, int won) {
    if (won == 1 << s->max_team) return CAPOT_BONUS;
    if (won == 1 << (1 - s->max_team)) return -CAPOT_BONUS;
    return 0;
}

/* Close a full trick: the gain from the maximizing side, the winner and the new ``won``. */
static inline int close_trick(const State *s, int *winner, int *won) {
    int code = s->code;
    const int *pts = POINTS[code];
    int w = winner_index(code, s->trick, 4);
    *winner = (s->leader + w) & 3;
    int gain = pts[s->trick[0]] + pts[s->trick[1]] + pts[s->trick[2]] + pts[s->trick[3]];
    if (!(s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]))
        gain += code == NT ? 20 : 10;
    int team = *winner & 1;
    *won = s->won | (1 << team);
    return team == s->max_team ? gain : -gain;
}

static int search(State *s, int alpha, int beta);

/* Play ``card`` for the seat to move, search on, take it back. */
static int play_and_search(State *s, int card, int alpha, int beta) {
    int n = s->ntrick, seat = (s->leader + n) & 3, v;
    s->hands[seat] ^= 1u << card;
    s->trick[n] = card;
    s->ntrick = n + 1;
    if (n == 3) {
        int winner, won2;
        int gain = close_trick(s, &winner, &won2);
        int leader = s->leader, won = s->won, trick[4];
        memcpy(trick, s->trick, sizeof trick); /* the next tricks reuse the array */
        s->leader = winner;
        s->won = won2;
        s->ntrick = 0;
        v = gain + search(s, alpha - gain, beta - gain);
        s->leader = leader;
        s->won = won;
        memcpy(s->trick, trick, sizeof trick);
    } else {
        v = search(s, alpha, beta);
    }
    s->ntrick = n;
    s->hands[seat] ^= 1u << card;
    return v;
}

static int last_trick(State *s) {
    /* Every hand holds one card: play them out in turn. */
    int leader = s->leader;
    for (int i = 0; i < 4; i++) {
        uint32_t h = s->hands[(leader + i) & 3];
        s->trick[i] = 31 - __builtin_clz(h);
    }
    uint32_t saved[4];
    memcpy(saved, s->hands, sizeof saved);
    memset(s->hands, 0, sizeof saved);
    int winner, won;
    int gain = close_trick(s, &winner, &won);
    memcpy(s->hands, saved, sizeof saved);
    return gain + capot_value(s, won);
}

static int search(State *s, int alpha, int beta) {
    if (++s->nodes > s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    int n = s->ntrick;
    int hint = -1;
    int meta = 0, tt_lo = -INF, tt_hi = INF;
    if (n == 0) {
        uint32_t all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
        if (!all) return capot_value(s, s->won);
        uint32_t h0 = s->hands[0];
        if (!(h0 & (h0 - 1))) {
            int one_each = 1;
            for (int i = 0; i < 4; i++) {
                uint32_t h = s->hands[i];
                if (!h || (h & (h - 1))) one_each = 0;
            }
            if (one_each) return last_trick(s);
        }
        /* No line can win more than every point left (and the capot, while possible). */
        const int(*bp)[256] = BYTE_POINTS[s->code];
        int left = bp[0][all & 0xFF] + bp[1][all >> 8 & 0xFF] + bp[2][all >> 16 & 0xFF] +
                   bp[3][all >> 24] + (s->code == NT ? 20 : 10);
        int most = left + ((s->won >> (1 - s->max_team)) & 1 ? 0 : CAPOT_BONUS);
        int least = -left - ((s->won >> s->max_team) & 1 ? 0 : CAPOT_BONUS);
        if (most <= alpha) return most;
        if (least >= beta) return least;
        meta = s->leader | s->won << 2;
        const Entry *e = &table[tt_index(s->hands, meta)];
        if (e->gen == generation && e->meta == meta && e->h[0] == s->hands[0] &&
            e->h[1] == s->hands[1] && e->h[2] == s->hands[2] && e->h[3] == s->hands[3]) {
            tt_lo = e->lo;
            tt_hi = e->hi;
            hint = e->best;
            if (tt_lo >= beta) return tt_lo;
            if (tt_hi <= alpha) return tt_hi;
            if (tt_lo == tt_hi) return tt_lo;
            if (tt_lo > alpha) alpha = tt_lo;
            if (tt_hi < beta) beta = tt_hi;
        }
    }
    int alpha0 = alpha, beta0 = beta;
    int seat = (s->leader + n) & 3;
    int maximizing = (seat & 1) == s->max_team;
    uint32_t hand = s->hands[seat];
    uint32_t legal = legal_mask(s->kind, s->code, hand, s->trick, n);
    uint32_t others = (s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) & ~hand;
    for (int i = 0; i < n; i++) others |= 1u << s->trick[i];
    int moves[8];
    int nm = class_moves(s->code, legal, others, moves);
    if (nm > 1) order_moves(s, moves, nm, others, hint);
    int best = maximizing ? -INF : INF, best_move = -1;
    for (int i = 0; i < nm; i++) {
        int card = moves[i], v;
        if (i == 0 || beta - alpha <= 1) {
            v = play_and_search(s, card, alpha, beta);
        } else if (maximizing) {
            /* Principal variation search: prove the later moves no better with a null
             * window, and search again only the one that is. */
            v = play_and_search(s, card, alpha, alpha + 1);
            if (!s->aborted && v > alpha && v < beta) v = play_and_search(s, card, v, beta);
        } else {
            v = play_and_search(s, card, beta - 1, beta);
            if (!s->aborted && v < beta && v > alpha) v = play_and_search(s, card, alpha, v);
        }
        if (s->aborted) return 0;
        if (maximizing) {
            if (v > best) {
                best = v;
                best_move = card;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        } else if (v < best) {
            best = v;
            best_move = card;
            if (v < beta) {
                beta = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (n == 0) {
        /* The slot may hold another position by now: start from the bounds probed. */
        int lo = tt_lo, hi = tt_hi;
        if (best <= alpha0) {
            if (best < hi) hi = best;
        } else if (best >= beta0) {
            if (best > lo) lo = best;
        } else {
            lo = hi = best;
        }
        Entry *slot = &table[tt_index(s->hands, meta)];
        memcpy(slot->h, s->hands, sizeof slot->h);
        slot->gen = generation;
        slot->meta = (uint8_t)meta;
        slot->lo = (int16_t)lo;
        slot->hi = (int16_t)hi;
        slot->best = (int8_t)best_move;
    }
    return best;
}

/* -- the root: every legal card's value -------------------------------------------- */

/* Every legal card of the seat to move, in the order of solver.py's ``root_values``;
 * ``fresh[i]`` is 0 for a card equivalent to the one before it (same suit, same points,
 * nothing of the others' between them), which must score the same and is solved once. */
static int root_cards(const State *s, int *cards, int *fresh) {
    int n = s->ntrick, seat = (s->leader + n) & 3, code = s->code;
    uint32_t hand = s->hands[seat];
    uint32_t legal = legal_mask(s->kind, code, hand, s->trick, n);
    uint32_t others = (s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) & ~hand;
    for (int i = 0; i < n; i++) others |= 1u << s->trick[i];
    int nc = 0;
    for (int suit = 0; suit < 4; suit++) {
        int have = 0, run_pts = -1;
        for (int i = 0; i < 8; i++) {
            int c = ORDER[code][suit][i];
            uint32_t bit = 1u << c;
            if (others & bit) {
                have = 0;
            } else if (legal & bit) {
                fresh[nc] = !have || POINTS[code][c] != run_pts;
                run_pts = POINTS[code][c];
                have = 1;
                cards[nc++] = c;
            }
        }
    }
    return nc;
}

/* A card's exact value, searched first within ASPIRATION points of ``guess`` (the
 * value of the root card solved before it: a hand's cards are seldom far apart) and
 * again on the side it failed, from the bound it proved.  The narrow first window cuts
 * more: 4 to 9% fewer nodes at 24 to 32 cards than one full-window search a card
 * (`python bench/dds.py --root --positions 100`, session 26); the value is the same to
 * the point. */
#define ASPIRATION 16
static int exact_value(State *s, int card, int guess) {
    int lo = guess - ASPIRATION, hi = guess + ASPIRATION;
    int v = play_and_search(s, card, lo, hi);
    if (s->aborted) return 0;
    if (v <= lo) return play_and_search(s, card, -INF, v + 1);
    if (v >= hi) return play_and_search(s, card, v - 1, INF);
    return v;
}

/* The value of every legal card in ``only`` (see ``root_cards``; the others' values are
 * left 0); returns how many legal cards, or -1 when the node budget ran out.  A card
 * equivalent to the one before it takes that one's value when that one was solved. */
static int root_solve(State *s, int *cards, int *values, uint32_t only) {
    int fresh[8], nc = root_cards(s, cards, fresh), solved = 0, guess = INF; /* INF: none yet */
    for (int i = 0; i < nc; i++) {
        if (!(only >> cards[i] & 1)) {
            values[i] = 0;
            solved = 0;
            continue;
        }
        if (fresh[i] || !solved) {
            values[i] = guess == INF ? play_and_search(s, cards[i], -INF, INF)
                                     : exact_value(s, cards[i], guess);
            guess = values[i];
        } else {
            values[i] = values[i - 1];
        }
        solved = 1;
        if (s->aborted) return -1;
    }
    return nc;
}

static int fresh_table(void) {
    if (!table) {
        table = calloc(TT_SIZE, sizeof(Entry));
        if (!table) return -1;
        pthread_setspecific(table_key, table);
    }
    if (++generation == 0) { /* wrapped: forget every entry for real */
        memset(table, 0, TT_SIZE * sizeof(Entry));
        generation = 1;
    }
    return 0;
}

/* -- the search core: worlds, likelihood, rollouts, scoring (engine/ai/world_search.py) */

static inline uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t BINOM[33][33];

static void build_binom(void) {
    for (int n = 0; n < 33; n++) {
        BINOM[n][0] = 1;
        for (int k = 1; k <= n; k++) BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k];
    }
}

#define MAX_CLASSES 7
typedef struct {
    uint32_t fixed[4];
    int seats[3];
    int need[3];
    int nclass;
    int cmask[MAX_CLASSES];
    int ncards[MAX_CLASSES];
    int cards[MAX_CLASSES][32];
    uint64_t counts[MAX_CLASSES + 1][9][9][9];
} Space;

/* Worlds of each class split (a, b, c) in worlds.py's ``_splits`` order; calls back. */
static void count_space(Space *sp) {
    memset(sp->counts, 0, sizeof sp->counts);
    sp->counts[sp->nclass][0][0][0] = 1;
    int suffix = 0;
    for (int i = sp->nclass - 1; i >= 0; i--) {
        int n = sp->ncards[i], mask = sp->cmask[i];
        suffix += n;
        for (int q0 = 0; q0 <= sp->need[0] && q0 <= suffix; q0++)
            for (int q1 = 0; q1 <= sp->need[1] && q1 <= suffix - q0; q1++) {
                int q2 = suffix - q0 - q1;
                if (q2 > sp->need[2]) continue;
                uint64_t ways = 0;
                int amax = (mask & 1) ? (n < q0 ? n : q0) : 0;
                for (int a = 0; a <= amax; a++) {
                    int bmax = (mask & 2) ? (n - a < q1 ? n - a : q1) : 0;
                    for (int b = 0; b <= bmax; b++) {
                        int c = n - a - b;
                        if ((c && !(mask & 4)) || c > q2) continue;
                        uint64_t rest = sp->counts[i + 1][q0 - a][q1 - b][q2 - c];
                        if (rest) ways += BINOM[n][a] * BINOM[n - a][b] * rest;
                    }
                }
                sp->counts[i][q0][q1][q2] = ways;
            }
    }
}

static void draw_world(const Space *sp, uint64_t *rng, uint32_t *hands) {
    for (int s = 0; s < 4; s++) hands[s] = sp->fixed[s];
    int q0 = sp->need[0], q1 = sp->need[1], q2 = sp->need[2];
    for (int i = 0; i < sp->nclass; i++) {
        int n = sp->ncards[i], mask = sp->cmask[i];
        uint64_t r = splitmix(rng) % sp->counts[i][q0][q1][q2];
        int pa = 0, pb = 0, pc = 0, found = 0;
        int amax = (mask & 1) ? (n < q0 ? n : q0) : 0;
        for (int a = 0; a <= amax && !found; a++) {
            int bmax = (mask & 2) ? (n - a < q1 ? n - a : q1) : 0;
            for (int b = 0; b <= bmax; b++) {
                int c = n - a - b;
                if ((c && !(mask & 4)) || c > q2) continue;
                uint64_t w = BINOM[n][a] * BINOM[n - a][b] * sp->counts[i + 1][q0 - a][q1 - b][q2 - c];
                if (r < w) {
                    pa = a;
                    pb = b;
                    pc = c;
                    found = 1;
                    break;
                }
                r -= w;
            }
        }
        int order[32];
        memcpy(order, sp->cards[i], n * sizeof(int));
        for (int j = n - 1; j > 0; j--) {
            int k = (int)(splitmix(rng) % (uint64_t)(j + 1));
            int t = order[j];
            order[j] = order[k];
            order[k] = t;
        }
        for (int j = 0; j < n; j++) {
            int seat = sp->seats[j < pa ? 0 : (j < pa + pb ? 1 : 2)];
            hands[seat] |= 1u << order[j];
        }
        q0 -= pa;
        q1 -= pb;
        q2 -= pc;
    }
}

/* The normal level's card (heuristic.py's ``normal_card``), for the likelihood and the
 * rollouts.  Python's min / max keep the first of equal keys over ascending cards; so do
 * the strict comparisons here. */
#define FULL_MASK 0xFFFFFFFFu

static inline int beats(int code, int card, int win_card) {
    if ((card >> 3) == (win_card >> 3)) return POWER[code][card] > POWER[code][win_card];
    return code < 4 && (card >> 3) == code;
}

static inline int is_master(int code, int card, uint32_t out) {
    return !(out & suit_mask(card >> 3) & ABOVE[code][card]);
}

static inline int is_trump(uint32_t trump_mask, int c) { return (trump_mask >> c) & 1; }

/* The first card of ``set`` (ascending) with the smallest (min) or largest key. */
#define PICK(set, keyexpr, better)                                                       \
    do {                                                                                 \
        int best_c_ = -1;                                                                \
        long best_k_ = 0;                                                                \
        for (uint32_t m_ = (set); m_; m_ &= m_ - 1) {                                    \
            int c = __builtin_ctz(m_);                                                   \
            long k_ = (keyexpr);                                                         \
            if (best_c_ < 0 || k_ better best_k_) {                                      \
                best_c_ = c;                                                             \
                best_k_ = k_;                                                            \
            }                                                                            \
        }                                                                                \
        return best_c_;                                                                  \
    } while (0)

static int lead_card(int code, uint32_t hand, uint32_t cards, uint32_t out, uint32_t trump_mask,
                     int attackers, int is_taker) {
    const int *pts = POINTS[code], *power = POWER[code];
    uint32_t my_trumps = cards & trump_mask;
    uint32_t out_trumps = out & trump_mask;
    if (code < 4 && my_trumps && out_trumps && attackers) {
        int top = -1;
        for (uint32_t m = my_trumps; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (top < 0 || power[c] > power[top]) top = c;
        }
        if (is_master(code, top, out)) return top;
        if (is_taker && popcount32(my_trumps) >= 3) {
            int low = -1;
            for (uint32_t m = my_trumps; m; m &= m - 1) {
                int c = __builtin_ctz(m);
                if (low < 0 || power[c] < power[low]) low = c;
            }
            return low;
        }
    }
    uint32_t side = code < 4 ? cards & ~suit_mask(code) : cards;
    uint32_t masters = 0;
    for (uint32_t m = side; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (is_master(code, c, out) &&
            (code >= 4 || !out_trumps || popcount32(out & suit_mask(c >> 3)) >= 2))
            masters |= 1u << c;
    }
    if (masters) PICK(masters, (long)pts[c] * 100 + power[c], >);
    if (!side) side = cards;
    PICK(side,
         ((pts[c] >= 10 && popcount32(hand & suit_mask(c >> 3)) == 1) ? 1000000L : 0L) +
             pts[c] * 10000L + (8 - popcount32(hand & suit_mask(c >> 3))) * 100L + power[c],
         <);
}

static int normal_card(int code, int seat, uint32_t hand, uint32_t legal, const int *trick,
                       int n, uint32_t played, int taker) {
    if (!(legal & (legal - 1))) return __builtin_ctz(legal);
    const int *pts = POINTS[code], *power = POWER[code];
    uint32_t out = FULL_MASK & ~hand & ~played;
    uint32_t trump_mask = code < 4 ? suit_mask(code) : (code == AT ? FULL_MASK : 0);
    int attackers = (seat & 1) == (taker & 1);
    if (n == 0) return lead_card(code, hand, legal, out, trump_mask, attackers, seat == taker);
    int w = winner_index(code, trick, n);
    int win_card = trick[w];
    int partner_wins = n - w == 2, last = n == 3;
    uint32_t winners = 0;
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (beats(code, c, win_card)) winners |= 1u << c;
    }
    uint32_t losers = legal & ~winners;
    if (partner_wins) {
        int safe = last || (is_master(code, win_card, out) &&
                            ((win_card >> 3) == code || code >= 4 || !(out & trump_mask) ||
                             (n == 2 && is_master(code, win_card, out))));
        uint32_t pool = losers ? losers : legal;
        if (!(pool & ~trump_mask) && code < 4) PICK(pool, (long)power[c] * 100 + pts[c], <);
        if (safe) PICK(pool, (is_trump(trump_mask, c) ? 0L : 10000L) + pts[c] * 100L + (50 - power[c]), >);
        PICK(pool, (is_trump(trump_mask, c) ? 10000L : 0L) + pts[c] * 100L + power[c], <);
    }
    if (winners) {
        int trick_pts = 0;
        uint32_t trick_bits = 0;
        for (int i = 0; i < n; i++) {
            trick_pts += pts[trick[i]];
            trick_bits |= 1u << trick[i];
        }
        if (last)
            PICK(winners,
                 is_trump(trump_mask, c) ? 100L - power[c] : 1000L + pts[c], >);
        uint32_t masters = 0;
        for (uint32_t m = winners; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (is_master(code, c, out & ~trick_bits)) masters |= 1u << c;
        }
        int led = trick[0] >> 3;
        int nwin = popcount32(winners), ncards = popcount32(legal);
        if (masters) {
            uint32_t plain = masters & suit_mask(led) & ~trump_mask;
            if (plain) PICK(plain, (long)pts[c], >);
            if (trick_pts >= 10 || nwin == ncards) PICK(masters, (long)power[c], <);
        }
        uint32_t ruffs = winners & trump_mask & ~suit_mask(led);
        if (ruffs && (trick_pts >= 10 || popcount32(ruffs) == ncards))
            PICK(ruffs, (long)power[c], <);
        if (trick_pts >= 10 && n == 2) PICK(winners, (long)pts[c] * 100 + power[c], <);
        if (!losers) PICK(winners, (long)power[c] * 100 + pts[c], <);
    }
    uint32_t pool = losers ? losers : legal;
    PICK(pool, (is_trump(trump_mask, c) ? 10000L : 0L) + pts[c] * 100L + power[c], <);
}

/* search.py's ``rollout`` (no exact tail): card points for team 0, capot included. */
static int rollout(int kind, int code, int taker, const uint32_t *hands0, int leader,
                   const int *trick0, int n0, uint32_t played, int won) {
    uint32_t hands[4];
    memcpy(hands, hands0, sizeof hands);
    int trick[4], n = n0;
    memcpy(trick, trick0, n0 * sizeof(int));
    const int *pts = POINTS[code];
    int diff = 0, seat = (leader + n) & 3;
    for (;;) {
        if (n == 4) {
            int w = (leader + winner_index(code, trick, 4)) & 3;
            int gain = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]];
            if (!(hands[0] | hands[1] | hands[2] | hands[3])) gain += code == NT ? 20 : 10;
            diff += (w & 1) == 0 ? gain : -gain;
            won |= 1 << (w & 1);
            leader = seat = w;
            n = 0;
        }
        uint32_t hand = hands[seat];
        if (!hand) break;
        uint32_t legal = legal_mask(kind, code, hand, trick, n);
        int card = normal_card(code, seat, hand, legal, trick, n, played, taker);
        hands[seat] = hand & ~(1u << card);
        trick[n++] = card;
        played |= 1u << card;
        seat = (seat + 1) & 3;
    }
    if (won == 1) diff += CAPOT_BONUS;
    else if (won == 2) diff -= CAPOT_BONUS;
    return diff;
}

static inline int floor_div2(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

static int total_points(int code) { return code == NT ? 260 : (code == AT ? 258 : 162); }

/* scoring.py's ``coinche_value``: Coinche's score of a contract of ``bid`` (capot 250,
 * generale 500, counted as the side's capot), the search's card points (No Trump and All
 * Trump by the standard tables) brought to Coinche's 162. */
#define COINCHE_CAPOT 250
static int coinche_value(int code, int mult, int bid, int tk, int my_team, const int *cards,
                         int capot, const int *belotes) {
    int total = total_points(code), df = 1 - tk, c[2], p[2] = {0, 0}, made;
    if (capot >= 0) {
        c[capot] = 252;
        c[1 - capot] = 0;
    } else {
        c[0] = cards[0] * 162 / total;
        c[1] = cards[1] * 162 / total;
    }
    if (bid >= COINCHE_CAPOT) made = capot == tk;
    else made = c[tk] + belotes[tk] >= bid;
    if (made && mult == 1) {
        p[tk] = bid + c[tk];
        p[df] = c[df];
    } else if (made) {
        p[tk] = (capot == tk ? 252 : 160) + bid * mult;
    } else {
        p[df] = 160 + bid * mult;
    }
    p[0] += belotes[0];
    p[1] += belotes[1];
    return p[my_team] - p[1 - my_team];
}

/* scoring.py's ``deal_value``: my team's raw deal score minus the other's. */
static int deal_value(int kind, int code, int multiplier, int tk, int my_team, int diff,
                      const int *melds, const int *belotes, int bid) {
    int total = total_points(code), capot = -1;
    if (diff >= total + CAPOT_BONUS) {
        capot = my_team;
        diff = total;
    } else if (diff <= -(total + CAPOT_BONUS)) {
        capot = 1 - my_team;
        diff = -total;
    }
    int mine = floor_div2(total + diff);
    int cards[2];
    cards[my_team] = mine;
    cards[1 - my_team] = total - mine;
    if (capot >= 0) {
        cards[capot] = total + CAPOT_BONUS;
        cards[1 - capot] = 0;
    }
    int df = 1 - tk;
    if (bid > 0) return coinche_value(code, multiplier, bid, tk, my_team, cards, capot, belotes);
    int tot[2] = {cards[0] + melds[0] + belotes[0], cards[1] + melds[1] + belotes[1]};
    int p[2] = {0, 0};
    if (kind == 2) {
        if (multiplier == 1) {
            if (tot[tk] > tot[df]) {
                p[0] = tot[0];
                p[1] = tot[1];
            } else if (tot[tk] < tot[df]) {
                p[df] = tot[0] + tot[1];
            } else {
                p[df] = tot[df];
            }
        } else {
            int whole = (tot[0] + tot[1]) * multiplier;
            if (tot[tk] > tot[df]) p[tk] = whole;
            else if (tot[tk] < tot[df]) p[df] = whole;
        }
    } else {
        if (tot[tk] > tot[df]) {
            p[0] = tot[0];
            p[1] = tot[1];
        } else if (tot[tk] < tot[df]) {
            p[df] = cards[0] + cards[1] + melds[0] + melds[1] + belotes[df];
            p[tk] = belotes[tk];
        } else {
            p[df] = tot[df];
            p[tk] = belotes[tk];
        }
    }
    return p[my_team] - p[1 - my_team];
}

/* -- the melds a world's hands will declare in the first trick (engine/core.py) -- */

/* One meld, as far as scoring and the comparison of melds need: ``run`` is a
 * sequence's length (0 for a carre), ``suit`` -1 for a carre. */
typedef struct {
    int points, run, top, suit;
} MeldC;

static const int CARRE_POINTS_C[8] = {0, 0, 150, 100, 200, 100, 100, 100}; /* 9 T J Q K A */

/* core.py's ``_run_melds``: one run of ``len`` cards from rank ``low``. */
static int run_melds(int suit, int low, int len, MeldC *out) {
    if (len < 3) return 0;
    if (len == 8) { /* a quinte (ten to ace) and a tierce (7, 8, 9) */
        out[0] = (MeldC){100, 5, 7, suit};
        out[1] = (MeldC){20, 3, 2, suit};
        return 2;
    }
    out[0] = (MeldC){len == 3 ? 20 : len == 4 ? 50 : 100, len, low + len - 1, suit};
    return 1;
}

/* core.py's ``best_melds``: the partition of the hand into melds that scores most (a
 * card in one meld only; at most two carres in eight cards), the first found on a tie. */
static int best_melds_c(uint32_t hand, MeldC *best) {
    MeldC carres[2];
    uint32_t masks[2];
    int nc = 0;
    for (int r = 2; r < 8 && nc < 2; r++) {
        uint32_t m = 0x01010101u << r;
        if ((hand & m) == m) {
            carres[nc] = (MeldC){CARRE_POINTS_C[r], 0, r, -1};
            masks[nc++] = m;
        }
    }
    int nbest = 0, best_pts = -1;
    for (int pick = 0; pick < (1 << nc); pick++) {
        MeldC cur[8];
        int n = 0, pts = 0;
        uint32_t rest = hand;
        for (int i = 0; i < nc; i++)
            if (pick >> i & 1) {
                cur[n++] = carres[i];
                rest &= ~masks[i];
            }
        for (int s = 0; s < 4; s++) {
            unsigned b = rest >> (8 * s) & 0xFF;
            int r = 0;
            while (r < 8) {
                if (b >> r & 1) {
                    int start = r;
                    while (r < 8 && (b >> r & 1)) r++;
                    n += run_melds(s, start, r - start, cur + n);
                } else {
                    r++;
                }
            }
        }
        for (int i = 0; i < n; i++) pts += cur[i].points;
        if (pts > best_pts) {
            best_pts = pts;
            nbest = n;
            memcpy(best, cur, sizeof(MeldC) * (size_t)n);
        }
    }
    return nbest;
}

/* The points of the melds that will count for each team (core.py's ``counting_melds``)
 * when every seat declares the best melds of its whole hand ``dealt`` with its first
 * card, ``first`` declaring first.  Club: only the team with the best meld scores its
 * melds (points, then the longer run, the higher top card, a run in trump; still equal,
 * the first declarer).  Bulgarian: carres count for whoever holds them; only the team
 * with the strictly better best sequence (longer, then higher) scores its sequences. */
static void foreseen_melds(int kind, int code, const uint32_t *dealt, int first, int *pts) {
    MeldC m[4][8];
    int n[4], seat[4];
    for (int i = 0; i < 4; i++) {
        seat[i] = (first + i) & 3;
        n[i] = best_melds_c(dealt[seat[i]], m[i]);
    }
    pts[0] = pts[1] = 0;
    if (kind == CLUB) {
        int best_key = -1, best_team = -1;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < n[i]; j++) {
                const MeldC *x = &m[i][j];
                int trump = x->suit >= 0 && (x->suit == code || code == AT);
                int key = ((x->points * 16 + x->run) * 16 + x->top) * 2 + trump;
                if (key > best_key) {
                    best_key = key;
                    best_team = seat[i] & 1;
                }
            }
        for (int i = 0; i < 4; i++)
            if ((seat[i] & 1) == best_team)
                for (int j = 0; j < n[i]; j++) pts[best_team] += m[i][j].points;
        return;
    }
    int best[2] = {-1, -1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < n[i]; j++)
            if (m[i][j].suit >= 0) {
                int key = m[i][j].run * 16 + m[i][j].top, t = seat[i] & 1;
                if (key > best[t]) best[t] = key;
            }
    int seq_team = best[0] > best[1] ? 0 : best[1] > best[0] ? 1 : -1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < n[i]; j++)
            if (m[i][j].suit < 0 || (seat[i] & 1) == seq_team) pts[seat[i] & 1] += m[i][j].points;
}

typedef struct {
    int seat, card, n;
    int prefix[3];
    uint32_t gone;
} Play;

/* world_search.py's ``_choices``: the others' past cards that were a choice in the world
 * ``hands``, latest first, each with the hand it was played from and its legal cards. */
typedef struct {
    const Play *play;
    uint32_t hand, legal;
} Choice;

static int choices(int kind, int code, int me, const Play *history, int nh,
                   const uint32_t *hands, Choice *out) {
    uint32_t later[4] = {0, 0, 0, 0};
    int n = 0;
    for (int i = nh - 1; i >= 0; i--) {
        const Play *p = &history[i];
        later[p->seat] |= 1u << p->card;
        if (p->seat == me) continue;
        uint32_t hand = hands[p->seat] | later[p->seat];
        uint32_t legal = legal_mask(kind, code, hand, p->prefix, p->n);
        if (!(legal & (legal - 1))) continue; /* forced: says nothing */
        out[n].play = p;
        out[n].hand = hand;
        out[n].legal = legal;
        n++;
    }
    return n;
}

/* world_search.py's ``play_likelihood``. */
static double likelihood(int kind, int code, int me, int taker, const Play *history, int nh,
                         const uint32_t *hands) {
    Choice ch[32];
    int n = choices(kind, code, me, history, nh, hands, ch);
    double weight = 1.0;
    for (int i = 0; i < n; i++) {
        const Play *p = ch[i].play;
        if (normal_card(code, p->seat, ch[i].hand, ch[i].legal, p->prefix, p->n, p->gone, taker) !=
            p->card)
            weight *= 0.4;
    }
    return weight;
}

#define POLICY_CARD 24
#define POLICY_INPUTS (POLICY_CARD + 11)
#define POLICY_HIDDEN 24
#define POLICY_SIZE (POLICY_INPUTS * POLICY_HIDDEN + 2 * POLICY_HIDDEN)

/* policy.py's ``card_score``: one hidden layer of tanh units.  Each unit sums its inputs
 * in the same order as the Python loop (so the two agree to the bit); an input of zero
 * adds exactly nothing and is skipped, and about half of them are zero. */
static double policy_score(const double *x, const double *weights) {
    const int out = POLICY_INPUTS * POLICY_HIDDEN;
    double acc[POLICY_HIDDEN];
    for (int j = 0; j < POLICY_HIDDEN; j++) acc[j] = weights[out + j];
    for (int i = 0; i < POLICY_INPUTS; i++) {
        if (x[i] == 0.0) continue;
        const double *w = weights + i * POLICY_HIDDEN;
        for (int j = 0; j < POLICY_HIDDEN; j++) acc[j] += w[j] * x[i];
    }
    double score = 0.0;
    for (int j = 0; j < POLICY_HIDDEN; j++)
        score += weights[out + POLICY_HIDDEN + j] * tanh(acc[j]);
    return score;
}

/* policy.py's ``card_features`` and ``card_probability``: the learned model of a strong
 * player's card.  The same operations in the same order as the Python, so the same
 * probabilities to the last bit. */
static int policy_scores(int code, int seat, uint32_t hand, uint32_t legal, const int *trick,
                         int n, uint32_t gone, int taker, const double *weights, double *scores,
                         double *top_out) {
    const int *pts = POINTS[code], *power = POWER[code];
    const uint32_t *above = ABOVE[code];
    uint32_t out = FULL_MASK & ~hand & ~gone;
    int attacker = (seat & 1) == (taker & 1);
    uint32_t trumps = code < 4 ? suit_mask(code) : (code == AT ? FULL_MASK : 0);
    int trumps_held = code < 4 ? popcount32(hand & trumps) : 0;
    int win_card = -1, led = -1, partner_wins = 0, trick_pts = 0;
    if (n) {
        int w = winner_index(code, trick, n);
        win_card = trick[w];
        partner_wins = n - w == 2;
        led = trick[0] >> 3;
        for (int i = 0; i < n; i++) trick_pts += pts[trick[i]];
    }
    uint32_t winners = 0;
    if (n)
        for (uint32_t m = legal; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (beats(code, c, win_card)) winners |= 1u << c;
        }
    double top = 0.0;
    int ns = 0;
    for (uint32_t m = legal; m && ns < 8; m &= m - 1) {
        int c = __builtin_ctz(m), suit = c >> 3;
        uint32_t in_suit = hand & suit_mask(suit);
        int held = popcount32(in_suit);
        int higher = popcount32(in_suit & above[c]);
        double p = pts[c] / 10.0;
        int trump = (trumps >> c) & 1;
        int master = !(above[c] & out);
        int other_master = 0;
        for (uint32_t h = in_suit & ~(1u << c); h; h &= h - 1)
            if (!(above[__builtin_ctz(h)] & out)) {
                other_master = 1;
                break;
            }
        int bare_ten = (c & 7) == 3 && !trump && code != AT && ((out >> (suit * 8 + 7)) & 1);
        int win = (winners >> c) & 1;
        int cheapest = win;
        for (uint32_t d = winners & suit_mask(suit); cheapest && d; d &= d - 1)
            if (power[__builtin_ctz(d)] < power[c]) cheapest = 0;
        int ruff = n > 0 && code < 4 && trump && led != suit;
        int discard = n > 0 && led != suit && !ruff;
        int lead = n == 0;
        double f[POLICY_INPUTS] = {
            p,
            (double)trump,
            (power[c] & 7) / 7.0,
            (double)win,
            win ? trick_pts / 10.0 : 0.0,
            win ? p : 0.0,
            partner_wins ? p : 0.0,
            (double)master,
            master ? p : 0.0,
            (double)(held - 1 - higher == 0),
            (double)(higher == 0),
            held / 8.0,
            (double)(held == 1),
            (double)ruff,
            (double)discard,
            discard ? p : 0.0,
            discard ? held / 8.0 : 0.0,
            (double)other_master,
            (double)bare_ten,
            lead ? popcount32(out & suit_mask(suit)) / 8.0 : 0.0,
            (lead && trump) ? trumps_held / 8.0 : 0.0,
            (double)cheapest,
            (double)(partner_wins && win),
            (double)(master && !trump && lead),
            (double)(n == 0),
            (double)(n == 1),
            (double)(n == 2),
            (double)(n == 3),
            (double)attacker,
            (double)partner_wins,
            trick_pts / 10.0,
            (double)(n > 0 && code < 4 && led == code),
            popcount32(legal) / 8.0,
            trumps_held / 8.0,
            popcount32(hand) / 8.0,
        };
        double sc = policy_score(f, weights);
        if (ns == 0 || sc > top) top = sc;
        scores[ns++] = sc;
    }
    *top_out = top;
    return ns;
}

/* The model's probability of every legal card (ascending), as policy.py's
 * ``card_probabilities``; returns how many. */
static int policy_probabilities(int code, int seat, uint32_t hand, uint32_t legal,
                                const int *trick, int n, uint32_t gone, int taker,
                                const double *weights, double *probs) {
    double top;
    int ns = policy_scores(code, seat, hand, legal, trick, n, gone, taker, weights, probs, &top);
    double z = 0.0;
    for (int i = 0; i < ns; i++) z += exp(probs[i] - top);
    for (int i = 0; i < ns; i++) probs[i] = exp(probs[i] - top) / z;
    return ns;
}

/* The model's probability of ``card``, one of ``legal``. */
static double policy_probability(int code, int seat, uint32_t hand, uint32_t legal,
                                 const int *trick, int n, uint32_t gone, int taker, int card,
                                 const double *weights) {
    double probs[8];
    policy_probabilities(code, seat, hand, legal, trick, n, gone, taker, weights, probs);
    return probs[popcount32(legal & ((1u << card) - 1))];
}

/* The rest of the current trick as the others would really play it: the seat to move
 * (not the searching seat) plays a card drawn from the learned policy for the hand this
 * world gives it (``model`` 2: the searcher's partner picks its best card instead), and
 * from the next trick on everyone is solved double dummy.  Double dummy, the others would
 * answer the searcher's card as if they saw every hand; the policy answers it as a
 * player who sees only their own. */
static int modeled_rest(State *s, uint32_t gone, int taker, const double *weights,
                        uint64_t *rng, int model) {
    int n = s->ntrick, seat = (s->leader + n) & 3;
    uint32_t hand = s->hands[seat];
    uint32_t legal = legal_mask(s->kind, s->code, hand, s->trick, n);
    int cards[8], nc = 0;
    if (model == 2 && (seat & 1) == s->max_team && (legal & (legal - 1))) {
        for (uint32_t m = legal; m && nc < 8; m &= m - 1) cards[nc++] = __builtin_ctz(m);
    } else if (!(legal & (legal - 1))) {
        cards[nc++] = __builtin_ctz(legal);
    } else {
        double u = (splitmix(rng) >> 11) * (1.0 / 9007199254740992.0), cum = 0.0;
        double probs[8];
        policy_probabilities(s->code, seat, hand, legal, s->trick, n, gone, taker, weights, probs);
        int last = -1, i = 0;
        for (uint32_t m = legal; m; m &= m - 1) {
            last = __builtin_ctz(m);
            cum += probs[i++];
            if (u < cum) break;
        }
        cards[nc++] = last;
    }
    int best = -INF;
    for (int i = 0; i < nc; i++) {
        int card = cards[i], v;
        if (n == 3) {
            v = play_and_search(s, card, -INF, INF);
        } else {
            s->hands[seat] ^= 1u << card;
            s->trick[n] = card;
            s->ntrick = n + 1;
            v = modeled_rest(s, gone | 1u << card, taker, weights, rng, model);
            s->ntrick = n;
            s->hands[seat] ^= 1u << card;
        }
        if (s->aborted) return 0;
        if (v > best) best = v;
    }
    return best;
}

/* ``root_solve`` with the rest of the current trick played by ``modeled_rest``. */
static int root_modeled(State *s, int *cards, int *values, uint32_t gone, int taker,
                        const double *weights, uint64_t *rng, int model) {
    int n = s->ntrick, seat = (s->leader + n) & 3;
    if (n == 3) return root_solve(s, cards, values, FULL_MASK);
    int fresh[8], nc = root_cards(s, cards, fresh);
    for (int i = 0; i < nc; i++) {
        if (!fresh[i]) {
            values[i] = values[i - 1];
            continue;
        }
        uint32_t bit = 1u << cards[i];
        s->hands[seat] ^= bit;
        s->trick[n] = cards[i];
        s->ntrick = n + 1;
        values[i] = modeled_rest(s, gone | bit, taker, weights, rng, model);
        s->ntrick = n;
        s->hands[seat] ^= bit;
        if (s->aborted) return -1;
    }
    return nc;
}

/* A seat's factors in the policy's weight of a world, and its share of the bids' weight,
 * depend only on the hand the world gives it (the history and the seat's played cards are
 * the decision's), and late in a deal many of the worlds drawn give a seat the same hand:
 * they are kept, per (seat, hand), for one decision.  An entry holds, for the seat's plays
 * from the latest back, the factor each multiplies the weight by (exactly 1 for a forced
 * card), and the seat's share of the bids' weight, so that a weight is the same product,
 * in the same order, as without the cache: the same bits. */
#define FACTOR_SLOTS 4096
typedef struct {
    uint64_t key; /* seat << 32 | hand, plus 1 (0: empty) */
    double factor[8];
    double share;
    unsigned char factored, shared; /* factor[] and share hold their values */
} FactorEntry;

typedef struct {
    FactorEntry *slots; /* FACTOR_SLOTS of them, or NULL: no cache */
    int used;
} FactorCache;

/* The seat's entry for the hand ``hand``, new ones empty (NULL when the cache is full or
 * absent). */
static FactorEntry *factor_slot(FactorCache *cache, int seat, uint32_t hand) {
    if (!cache || !cache->slots) return NULL;
    uint64_t key = ((uint64_t)seat << 32 | hand) + 1;
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 52) & (FACTOR_SLOTS - 1);
    for (;; i = (i + 1) & (FACTOR_SLOTS - 1)) {
        FactorEntry *e = &cache->slots[i];
        if (e->key == key) return e;
        if (!e->key) {
            if (cache->used >= FACTOR_SLOTS * 3 / 4) return NULL;
            cache->used++;
            e->key = key;
            return e;
        }
    }
}

/* world_search.py's ``policy_likelihood``, the seats' factors kept in ``cache`` (NULL:
 * none). */
static double policy_likelihood(int kind, int code, int me, int taker, const Play *history,
                                int nh, const uint32_t *hands, const double *weights,
                                double alpha, FactorCache *cache) {
    FactorEntry *entry[4] = {NULL, NULL, NULL, NULL};
    int known[4] = {0, 0, 0, 0}, done[4] = {0, 0, 0, 0};
    uint32_t later[4] = {0, 0, 0, 0};
    for (int s = 0; s < 4; s++) {
        if (s == me) continue;
        entry[s] = factor_slot(cache, s, hands[s]);
        known[s] = entry[s] && entry[s]->factored;
    }
    double weight = 1.0;
    for (int i = nh - 1; i >= 0; i--) {
        const Play *p = &history[i];
        int s = p->seat;
        later[s] |= 1u << p->card;
        if (s == me) continue;
        int j = done[s]++;
        double f;
        if (known[s]) {
            f = entry[s]->factor[j];
        } else {
            uint32_t hand = hands[s] | later[s];
            uint32_t legal = legal_mask(kind, code, hand, p->prefix, p->n);
            f = 1.0; /* forced: says nothing */
            if (legal & (legal - 1))
                f = pow(policy_probability(code, s, hand, legal, p->prefix, p->n, p->gone, taker,
                                           p->card, weights),
                        alpha);
            if (entry[s]) entry[s]->factor[j] = f;
        }
        weight *= f;
    }
    for (int s = 0; s < 4; s++)
        if (entry[s]) entry[s]->factored = 1;
    return weight;
}

/* world_search.py's ``solved_likelihood``: the others' latest choices judged by the
 * solver.  Each of the last ``depth`` plays of another seat that had a choice (in this
 * world) and came with at most ``max_cards`` cards in hands is solved from where it was
 * made, for the player's team: a card worth ``loss`` less than that seat's best card
 * multiplies the weight by exp(-loss / tau).  ``won_before[i]``: the teams that had taken
 * a trick before play ``i``.  Returns -1 when the node budget ran out. */
static double solved_likelihood(int kind, int code, int me, const Play *history, int nh,
                                const int *won_before, const uint32_t *hands, int depth,
                                int max_cards, double tau, long long *nodes_left) {
    uint32_t later[4] = {0, 0, 0, 0};
    double weight = 1.0;
    int judged = 0;
    for (int i = nh - 1; i >= 0 && judged < depth; i--) {
        const Play *p = &history[i];
        later[p->seat] |= 1u << p->card;
        if (p->seat == me || 32 - i > max_cards) continue;
        uint32_t then[4];
        for (int x = 0; x < 4; x++) then[x] = hands[x] | later[x];
        uint32_t legal = legal_mask(kind, code, then[p->seat], p->prefix, p->n);
        if (!(legal & (legal - 1))) continue;
        if (*nodes_left <= 0 || fresh_table() < 0) return -1.0;
        State st;
        st.kind = kind;
        st.code = code;
        st.max_team = p->seat & 1;
        memcpy(st.hands, then, sizeof st.hands);
        for (int j = 0; j < p->n; j++) st.trick[j] = p->prefix[j];
        st.ntrick = p->n;
        st.leader = (p->seat - p->n) & 3;
        st.won = won_before[i];
        st.nodes = 0;
        st.max_nodes = *nodes_left;
        st.aborted = 0;
        int rc[8], rv[8];
        int nr = root_solve(&st, rc, rv, FULL_MASK);
        *nodes_left -= st.nodes;
        if (nr < 0) return -1.0;
        int best = -INF, played = -INF;
        for (int j = 0; j < nr; j++) {
            if (rv[j] > best) best = rv[j];
            if (rc[j] == p->card) played = rv[j];
        }
        weight *= exp(-(double)(best - played) / tau);
        judged++;
    }
    return weight;
}

/* The teams that had taken a trick before each play of ``history`` (tricks of four). */
static void wins_before(int code, const Play *history, int nh, int *out) {
    int won = 0;
    for (int i = 0; i < nh; i++) {
        out[i] = won;
        if (i % 4 == 3) {
            int cards[4];
            for (int j = 0; j < 4; j++) cards[j] = history[i - 3 + j].card;
            int w = (history[i - 3].seat + winner_index(code, cards, 4)) & 3;
            won |= 1 << (w & 1);
        }
    }
}

/* -- the auction's likelihood (engine/ai/auction.py, bidding.py's hard evaluation) -- */

typedef struct {
    int seat, round, turned, dealer, pass_legal, contre_legal, recontre_legal, cur, ours, said;
    int nopt, opts[6];
} SeenBid;

#define MAX_BIDS 40
#define TAKE_ROUND 0
#define NAME_ROUND 1
#define SAID_PASS -1
#define SAID_TAKE -2
#define SAID_CONTRE 6
#define SAID_RECONTRE 7

static const double TRUMP_W[8] = {1, 1, 8, 5, 11, 2.5, 3, 6};

static double side_strength(uint32_t hand, int suit) {
    uint32_t cards = (hand >> (suit * 8)) & 0xFF;
    int ace = (cards >> 7) & 1, ten = (cards >> 3) & 1;
    double s = 5.0 * ace;
    if (ten) s += ace ? 3.0 : 0.5;
    return s;
}

/* Every value here is a multiple of a half, so the sums are exact in any order. */
static double trump_weight(uint32_t trumps) {
    double s = 0;
    for (uint32_t m = trumps; m; m &= m - 1) s += TRUMP_W[__builtin_ctz(m) & 7];
    return s;
}

static double sides_strength(uint32_t hand, int code) {
    double s = 0;
    for (int suit = 0; suit < 4; suit++)
        if (suit != code) s += side_strength(hand, suit);
    return s;
}

/* bidding.py's ``strength``: the same sums in the same order (so the same doubles). */
static double strength(uint32_t hand, int code) {
    if (code < 4) {
        uint32_t trumps = hand & suit_mask(code);
        int n = popcount32(trumps);
        double s = trump_weight(trumps) + 2.5 * (n > 2 ? n - 2 : 0);
        if ((trumps >> (code * 8 + 5) & 1) && (trumps >> (code * 8 + 6) & 1)) s += 3;
        return s + sides_strength(hand, code);
    }
    double s = 0.0;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t cards = (hand >> (suit * 8)) & 0xFF;
        int count = popcount32(cards);
        if (code == NT) {
            int ace = (cards >> 7) & 1, ten = (cards >> 3) & 1, king = (cards >> 6) & 1;
            s += (8.0 * ace + ((ten && ace) ? 5.0 : 1.5 * ten)) + ((king && ace && ten) ? 2.0 : 0.0);
            s += 0.8 * (double)(count > 3 ? count - 3 : 0) * (double)(ace ? ace : ten);
        } else {
            int jack = (cards >> 4) & 1, nine = (cards >> 2) & 1, ace = (cards >> 7) & 1;
            s += (9.0 * jack + ((nine && jack) ? 6.0 : 2.5 * nine)) + 1.5 * ace;
            s += 0.8 * (double)(count > 2 ? count - 2 : 0) * (double)jack;
        }
    }
    return s;
}

/* bidding.py's ``_defence``. */
static double defence(uint32_t hand, int code) {
    if (code < 4) {
        uint32_t t = hand & suit_mask(code);
        int n = popcount32(t);
        return trump_weight(t) + 2 * (n > 1 ? n - 1 : 0) + sides_strength(hand, code);
    }
    return strength(hand, code) + 0.3 * strength(hand, code == NT ? AT : NT);
}

/* bidding.py's ``bid_on(hand, turn, "hard")``, as a said code. */
static int hard_bid(uint32_t hand, const SeenBid *b) {
    if (b->round != 2) {
        uint32_t full = hand | (1u << b->turned);
        if (b->round == TAKE_ROUND)
            return strength(full, b->turned >> 3) >= 22.0 - (b->dealer ? 1.5 : 0.0) ? SAID_TAKE : SAID_PASS;
        if (!b->nopt) return SAID_PASS;
        int best = b->opts[0];
        double bs = strength(full, best);
        for (int i = 1; i < b->nopt; i++) {
            double v = strength(full, b->opts[i]);
            if (v > bs) {
                best = b->opts[i];
                bs = v;
            }
        }
        if (!b->pass_legal) return best;
        return bs >= 24.0 ? best : SAID_PASS;
    }
    int best = SAID_PASS;
    double best_margin = 0.0;
    for (int i = 0; i < b->nopt; i++) {
        int c = b->opts[i];
        double margin = strength(hand, c) - (c == NT ? 23.0 : (c == AT ? 25.0 : 19.0));
        if (b->ours) margin -= 6;
        if (margin >= 0 && margin > best_margin - 1e-9 && (best == SAID_PASS || margin > best_margin)) {
            best = c;
            best_margin = margin;
        }
    }
    if (b->contre_legal && b->cur >= 0) {
        double contre_margin = defence(hand, b->cur) - 21.0;
        if (contre_margin >= 0 && contre_margin >= best_margin) return SAID_CONTRE;
    }
    if (best != SAID_PASS) return best;
    if (b->recontre_legal && b->cur >= 0 && strength(hand, b->cur) >= 27.0) return SAID_RECONTRE;
    return SAID_PASS;
}

/* auction.py's ``_seat_likelihood``: the share of the seat's possible five-card auction
 * hands (drawn from ``pool``, in ascending order) under which the model bids as it did. */
static double seat_likelihood(const SeenBid *bids, int nb, int seat, uint32_t pool, double mismatch) {
    int c[8], n = 0;
    for (uint32_t m = pool; m && n < 8; m &= m - 1) c[n++] = __builtin_ctz(m);
    double total = 0.0;
    int count = 0;
    for (int a = 0; a < n; a++)
        for (int b1 = a + 1; b1 < n; b1++)
            for (int c1 = b1 + 1; c1 < n; c1++)
                for (int d = c1 + 1; d < n; d++)
                    for (int e = d + 1; e < n; e++) {
                        uint32_t hand = (1u << c[a]) | (1u << c[b1]) | (1u << c[c1]) | (1u << c[d]) | (1u << c[e]);
                        double m = 1.0;
                        for (int i = 0; i < nb; i++)
                            if (bids[i].seat == seat && hard_bid(hand, &bids[i]) != bids[i].said) m *= mismatch;
                        total += m;
                        count++;
                    }
    return count ? total / count : 1.0;
}

/* auction.py's ``auction_likelihood``; ``dealt`` is each seat's whole hand, ``hands`` what
 * it holds now; each seat's share kept in ``cache`` (NULL: none). */
static double auction_weight(const SeenBid *bids, int nb, const uint32_t *dealt,
                             const uint32_t *hands, int turned, double mismatch,
                             FactorCache *cache) {
    double weight = 1.0;
    for (int seat = 0; seat < 4; seat++) {
        int any = 0;
        for (int i = 0; i < nb; i++) any |= bids[i].seat == seat;
        if (!any) continue;
        FactorEntry *e = factor_slot(cache, seat, hands[seat]);
        double share;
        if (e && e->shared) {
            share = e->share;
        } else {
            uint32_t pool = turned >= 0 ? dealt[seat] & ~(1u << turned) : dealt[seat];
            share = seat_likelihood(bids, nb, seat, pool, mismatch);
            if (e) {
                e->share = share;
                e->shared = 1;
            }
        }
        weight *= share;
    }
    return weight;
}

/* -- Python interface --------------------------------------------------------------- */

static PyObject *NodeLimit = NULL;

static int parse_state(State *s, PyObject *args, unsigned long long *only) {
    PyObject *hands, *trick;
    long long max_nodes = -1;
    if (!PyArg_ParseTuple(args, only ? "iiiOiOi|LK" : "iiiOiOi|L", &s->kind, &s->code,
                          &s->max_team, &hands, &s->leader, &trick, &s->won, &max_nodes, only))
        return -1;
    if (s->code < 0 || s->code > 5 || s->kind < 0 || s->kind > 2 || s->max_team < 0 ||
        s->max_team > 1 || s->leader < 0 || s->leader > 3 || s->won < 0 || s->won > 3) {
        PyErr_SetString(PyExc_ValueError, "kind, code, team, leader or won out of range");
        return -1;
    }
    PyObject *hs = PySequence_Fast(hands, "hands must be a sequence of four masks");
    if (!hs) return -1;
    if (PySequence_Fast_GET_SIZE(hs) != 4) {
        Py_DECREF(hs);
        PyErr_SetString(PyExc_ValueError, "hands must hold four masks");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(hs, i));
        if (PyErr_Occurred() || v > 0xFFFFFFFFul) {
            Py_DECREF(hs);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a hand is a 32-bit mask");
            return -1;
        }
        s->hands[i] = (uint32_t)v;
    }
    Py_DECREF(hs);
    PyObject *ts = PySequence_Fast(trick, "trick must be a sequence of cards");
    if (!ts) return -1;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(ts);
    if (nt > 3) {
        Py_DECREF(ts);
        PyErr_SetString(PyExc_ValueError, "a trick in progress holds at most three cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, i));
        if (PyErr_Occurred() || c < 0 || c > 31) {
            Py_DECREF(ts);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0..31");
            return -1;
        }
        s->trick[i] = (int)c;
    }
    Py_DECREF(ts);
    s->ntrick = (int)nt;
    s->nodes = 0;
    s->max_nodes = max_nodes < 0 ? (1LL << 62) : max_nodes;
    s->aborted = 0;
    if (fresh_table() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *limit_error(const State *s) {
    PyErr_Format(NodeLimit, "node budget of %lld used up", s->max_nodes);
    return NULL;
}

PyDoc_STRVAR(value_doc,
             "value(kind, code, max_team, hands, leader, trick, won, max_nodes=-1) -> (value, nodes)\n\n"
             "Exact minimax value of the position for ``max_team``.");

static PyObject *dds_value(PyObject *self, PyObject *args) {
    State s;
    int v;
    if (parse_state(&s, args, NULL) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    v = search(&s, -INF, INF);
    Py_END_ALLOW_THREADS
    if (s.aborted) return limit_error(&s);
    return Py_BuildValue("(iL)", v, s.nodes);
}

PyDoc_STRVAR(root_doc,
             "root_values(kind, code, max_team, hands, leader, trick, won, max_nodes=-1,"
             " only=0xFFFFFFFF) -> ({card: value}, nodes)\n\n"
             "Exact value of every legal card of the seat to move that ``only`` holds "
             "(equivalent cards solved once).");

static PyObject *dds_root_values(PyObject *self, PyObject *args) {
    State s;
    unsigned long long only = FULL_MASK;
    if (parse_state(&s, args, &only) < 0) return NULL;
    int seat = (s.leader + s.ntrick) & 3;
    uint32_t hand = s.hands[seat];
    if (!hand) {
        PyErr_SetString(PyExc_ValueError, "the seat to move holds no card");
        return NULL;
    }
    int cards[8], values[8], nc = 0;
    Py_BEGIN_ALLOW_THREADS
    nc = root_solve(&s, cards, values, (uint32_t)only);
    Py_END_ALLOW_THREADS
    if (s.aborted) return limit_error(&s);
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int i = 0; i < nc; i++) {
        if (!(only >> cards[i] & 1)) continue;
        PyObject *k = PyLong_FromLong(cards[i]), *v = PyLong_FromLong(values[i]);
        int bad = !k || !v || PyDict_SetItem(out, k, v) < 0;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (bad) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return Py_BuildValue("(NL)", out, s.nodes);
}

/* Read a sequence of ``n`` ints (``n`` < 0: any length up to ``cap``) into ``out``. */
static int read_ints(PyObject *seq, int n, int cap, long long *out, const char *what) {
    PyObject *fs = PySequence_Fast(seq, what);
    if (!fs) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fs);
    if ((n >= 0 && len != n) || len > cap) {
        Py_DECREF(fs);
        PyErr_SetString(PyExc_ValueError, what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fs, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fs);
            return -1;
        }
    }
    Py_DECREF(fs);
    return (int)len;
}

/* world_search.py's ``dealt_hands``: each seat's whole hand of the deal in the world
 * ``hands``, what it holds and what it has played. */
static void dealt_hands(const uint32_t *hands, const Play *history, int nh, uint32_t *dealt) {
    memcpy(dealt, hands, sizeof(uint32_t) * 4);
    for (int i = 0; i < nh; i++) dealt[history[i].seat] |= 1u << history[i].card;
}

/* What the others showed and did not announce (knowledge.py's ``shown_melds`` and
 * ``unannounced``), and the factor of a world that disagrees with it. */
typedef struct {
    long long shown[4];  /* points << 32 | cards of the melds shown; -1: not known */
    uint32_t unheld[4];  /* cards not held, by a belote not announced */
    double mismatch;
} Announced;

/* The cards of one meld of ``best_melds_c``. */
static uint32_t meld_cards(const MeldC *m) {
    if (m->run == 0) return 0x01010101u << m->top;
    return ((1u << m->run) - 1u) << (8 * m->suit + m->top - m->run + 1);
}

/* world_search.py's ``announced_likelihood``; ``dealt`` is each seat's whole hand. */
static double announced_weight(const Announced *an, int me, const uint32_t *dealt) {
    for (int s = 0; s < 4; s++) {
        if (s == me) continue;
        if (dealt[s] & an->unheld[s]) return an->mismatch;
        if (an->shown[s] >= 0) {
            MeldC m[8];
            int n = best_melds_c(dealt[s], m);
            long long points = 0;
            uint32_t cards = 0;
            for (int i = 0; i < n; i++) {
                points += m[i].points;
                cards |= meld_cards(&m[i]);
            }
            if ((points << 32 | (long long)cards) != an->shown[s]) return an->mismatch;
        }
    }
    return 1.0;
}

/* world_search.py's ``world_weight``: the plays, the policy, the bids and what was
 * announced (not the judge). */
static double world_weight_c(int kind, int code, int seat, int taker, int infer,
                             const Play *history, int nh, const uint32_t *hands,
                             const double *policy, double policy_alpha, const SeenBid *bids,
                             int nbids, int turned, double bid_mismatch, FactorCache *cache,
                             const Announced *an) {
    double w = (infer & 1) ? likelihood(kind, code, seat, taker, history, nh, hands) : 1.0;
    if (infer & 8)
        w *= policy_likelihood(kind, code, seat, taker, history, nh, hands, policy, policy_alpha,
                               cache);
    uint32_t dealt[4];
    if (((infer & 2) && nbids) || (infer & 16)) dealt_hands(hands, history, nh, dealt);
    if ((infer & 2) && nbids)
        w *= auction_weight(bids, nbids, dealt, hands, turned, bid_mismatch, cache);
    if (infer & 16) w *= announced_weight(an, seat, dealt);
    return w;
}

/* world_search.py's ``resample``: systematic resampling of ``n`` of the ``m`` weighed
 * worlds.  ``picked`` gets the chosen indices (ascending, repeats kept distinct), and
 * ``weights`` of a chosen world becomes its share: how many times it was chosen. */
static int resample(double *weights, int m, int n, double total, uint64_t *rng, int *picked) {
    double u = (double)(splitmix(rng) >> 11) * (1.0 / 9007199254740992.0);
    int *count = calloc((size_t)m, sizeof(int));
    if (!count) return 0;
    if (!(total > 0)) {
        for (int i = 0; i < n; i++) count[i % m]++;
    } else {
        double step = total / n, cum = weights[0];
        int j = 0;
        for (int i = 0; i < n; i++) {
            double target = (u + i) * step;
            while (cum < target && j < m - 1) cum += weights[++j];
            count[j]++;
        }
    }
    int k = 0;
    for (int i = 0; i < m; i++)
        if (count[i]) {
            weights[i] = (double)count[i];
            picked[k++] = i;
        }
    free(count);
    return k;
}

/* -- the worlds' solves, on one thread or several ------------------------------------ */

/* Each world is solved with a table of its own generation, so its node count depends on
 * the world alone, and the solves can run on several threads at once.  The budget is
 * spent as a single thread solving the worlds in order would spend it: a world is solved
 * while nodes are left, with what is left as its limit, and the first one that runs past
 * it, and every world after it, is rolled out.  A thread that takes world ``i`` before
 * the worlds ahead of it are done starts it with what those already done leave (never
 * less than the one-thread limit); once every world is done, the budget is replayed in
 * order (``spent_in_order``), so the worlds solved, their values and the totals are those
 * of one thread, bit for bit, whatever the number of threads. */
enum { SOLVE_PENDING, SOLVE_DONE, SOLVE_ABORTED, SOLVE_SKIPPED };

typedef struct {
    int kind, code, my_team, ntrick, leader, won, taker, model;
    int trick[4];
    uint32_t played;
    const double *policy;
    uint64_t *mrng; /* the modeled trick's draws: one thread only, in order */
    const uint32_t (*hands)[4];
    int n;
    uint32_t only; /* the root cards to solve (the others were dropped by the race) */
    /* per world */
    signed char *status;
    long long *nodes;
    int (*cards)[8], (*values)[8], *count;
    /* the first world of the same phase dealt exactly as this one, or -1 (``mark_twins``) */
    int *twin;
    /* shared, under ``mu``: the next world to take; worlds before ``prefix`` are all
     * done and leave ``left`` nodes */
    int next, prefix, failed;
    long long left;
    pthread_mutex_t mu;
} SolveJob;

/* Late in a deal the worlds drawn repeat: a world dealt exactly as one before it in the
 * same phase (the same cards to solve) is not solved again but takes that one's solve,
 * its values and its node count alike.  A world's solve depends on the world alone (a
 * fresh table), so this is the solve it would have had, and the budget is spent as if it
 * had been solved. */
static void mark_twins(SolveJob *j, int start) {
    enum { SLOTS = 4096 };
    int slot[SLOTS];
    int use = j->n - start <= SLOTS / 2 && !j->model;
    if (use) memset(slot, -1, sizeof slot);
    for (int i = start; i < j->n; i++) {
        j->twin[i] = -1;
        if (!use) continue;
        const uint32_t *h = j->hands[i];
        uint64_t x = ((uint64_t)h[0] << 32 | h[1]) * 0x9E3779B97F4A7C15ull;
        x ^= ((uint64_t)h[2] << 32 | h[3]) * 0xC2B2AE3D27D4EB4Full;
        for (uint32_t k = (uint32_t)(x >> 52) & (SLOTS - 1);; k = (k + 1) & (SLOTS - 1)) {
            if (slot[k] < 0) {
                slot[k] = i;
                break;
            }
            if (!memcmp(j->hands[slot[k]], h, sizeof(uint32_t[4]))) {
                j->twin[i] = slot[k];
                break;
            }
        }
    }
}

static void advance_prefix(SolveJob *j) {
    while (j->prefix < j->n) {
        int i = j->prefix, t = j->twin[i];
        if (j->status[i] == SOLVE_PENDING) {
            if (t < 0) break;
            /* its twin is before it, so done: the same solve */
            j->status[i] = j->status[t];
            j->nodes[i] = j->nodes[t];
            j->count[i] = j->count[t];
            memcpy(j->cards[i], j->cards[t], sizeof j->cards[i]);
            memcpy(j->values[i], j->values[t], sizeof j->values[i]);
        }
        j->prefix++;
        if (j->left <= 0) continue;
        if (j->status[i] == SOLVE_DONE && j->nodes[i] <= j->left)
            j->left -= j->nodes[i];
        else
            j->left = 0;
    }
}

/* Take worlds and solve them until none is left (every thread of the job runs this). */
static void solve_share(SolveJob *j) {
    pthread_mutex_lock(&j->mu);
    while (j->next < j->n && !j->failed) {
        int i = j->next++;
        if (j->twin[i] >= 0) continue; /* taken from its twin (``advance_prefix``) */
        long long limit = j->left;
        pthread_mutex_unlock(&j->mu);
        signed char status = SOLVE_SKIPPED;
        long long nodes = 0;
        int failed = 0;
        if (limit > 0) {
            if (fresh_table() < 0) {
                failed = 1;
            } else {
                State st;
                st.kind = j->kind;
                st.code = j->code;
                st.max_team = j->my_team;
                memcpy(st.hands, j->hands[i], sizeof st.hands);
                memcpy(st.trick, j->trick, sizeof st.trick);
                st.ntrick = j->ntrick;
                st.leader = j->leader;
                st.won = j->won;
                st.nodes = 0;
                st.max_nodes = limit;
                st.aborted = 0;
                int nr = j->model ? root_modeled(&st, j->cards[i], j->values[i], j->played, j->taker,
                                                 j->policy, j->mrng, j->model)
                                  : root_solve(&st, j->cards[i], j->values[i], j->only);
                status = nr < 0 ? SOLVE_ABORTED : SOLVE_DONE;
                nodes = st.nodes;
                j->count[i] = nr;
            }
        }
        pthread_mutex_lock(&j->mu);
        j->failed |= failed;
        j->status[i] = status;
        j->nodes[i] = nodes;
        advance_prefix(j);
    }
    pthread_mutex_unlock(&j->mu);
}

/* The helper threads: started on first use, waiting for a job; ``set_threads`` says how
 * many threads a search may use (the caller's included).  A forked child has none of
 * its parent's threads: ``pool_after_fork`` forgets them. */
#define MAX_THREADS 8
static int search_threads = 1;
static int pool_helpers = 0, pool_busy = 0, pool_in_use = 0;
static unsigned long pool_round = 0;
static SolveJob *pool_job = NULL;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t pool_idle = PTHREAD_COND_INITIALIZER;

static void pool_after_fork(void) {
    pthread_mutex_init(&pool_mu, NULL);
    pthread_cond_init(&pool_wake, NULL);
    pthread_cond_init(&pool_idle, NULL);
    pool_helpers = pool_busy = pool_in_use = 0;
    pool_job = NULL;
}

static void *pool_helper(void *arg) {
    (void)arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool_mu);
    for (;;) {
        while (!pool_job || pool_round == seen) pthread_cond_wait(&pool_wake, &pool_mu);
        seen = pool_round;
        SolveJob *j = pool_job;
        pool_busy++;
        pthread_mutex_unlock(&pool_mu);
        solve_share(j);
        pthread_mutex_lock(&pool_mu);
        if (--pool_busy == 0) pthread_cond_broadcast(&pool_idle);
    }
    return NULL;
}

/* Solve every world of ``j``, on the pool's threads when it is free (a second search
 * running at the same time, from another thread, solves its worlds alone). */
static void solve_worlds(SolveJob *j) {
    int helped = 0;
    if (!j->model && j->n > 1) {
        pthread_mutex_lock(&pool_mu);
        if (!pool_in_use && search_threads > 1) {
            while (pool_helpers < search_threads - 1) {
                pthread_t t;
                pthread_attr_t attr;
                pthread_attr_init(&attr);
                pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
                int rc = pthread_create(&t, &attr, pool_helper, NULL);
                pthread_attr_destroy(&attr);
                if (rc != 0) break;
                pool_helpers++;
            }
            if (pool_helpers > 0) {
                pool_in_use = 1;
                pool_job = j;
                pool_round++;
                pthread_cond_broadcast(&pool_wake);
                helped = 1;
            }
        }
        pthread_mutex_unlock(&pool_mu);
    }
    solve_share(j);
    if (helped) {
        pthread_mutex_lock(&pool_mu);
        pool_job = NULL;
        while (pool_busy > 0) pthread_cond_wait(&pool_idle, &pool_mu);
        pool_in_use = 0;
        pthread_mutex_unlock(&pool_mu);
    }
}

PyDoc_STRVAR(threads_doc,
             "set_threads(n) -> previous\n\n"
             "How many threads a search may solve its worlds on (1..8, the caller's included; "
             "1 at import).  The results do not depend on it: only the time does.");

static PyObject *dds_set_threads(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return NULL;
    if (n < 1 || n > MAX_THREADS) {
        PyErr_SetString(PyExc_ValueError, "threads: 1..8");
        return NULL;
    }
    pthread_mutex_lock(&pool_mu);
    int previous = search_threads;
    search_threads = n;
    pthread_mutex_unlock(&pool_mu);
    return PyLong_FromLong(previous);
}

PyDoc_STRVAR(search_doc,
             "search_worlds(kind, code, seat, taker, multiplier, fixed, seats, need, classes,"
             " leader, trick, played, won, history, so_far, melds, belotes, samples, seed,"
             " node_budget, infer, objective, points_weight, bids=(), turned=-1, bid_mismatch=1.0,"
             " judge_depth=0, judge_cards=32, judge_tau=20.0, judge_budget=0, policy=(),"
             " policy_alpha=1.0, oversample=1, belote_pairs=(), foresee_melds=0,"
             " model_trick=0, race_worlds=0, race_margin=0.0, shown_melds=(), unannounced=(),"
             " announce_mismatch=1.0, coinche_bid=0)"
             " -> (cards, totals, weight_sum, nodes, dropped, exact)\n\n"
             "engine/ai/world_search.py's ``world_totals``, compiled end to end.");

static PyObject *dds_search_worlds(PyObject *self, PyObject *args) {
    int kind, code, seat, taker, multiplier, leader, won, so_far, samples, infer, objective;
    unsigned long long seed;
    long long node_budget;
    unsigned long long played_in;
    double points_weight, bid_mismatch = 1.0, judge_tau = 20.0;
    int turned = -1, judge_depth = 0, judge_cards = 32;
    long long judge_budget = 0;
    PyObject *fixed_o, *seats_o, *need_o, *classes_o, *trick_o, *history_o, *melds_o, *belotes_o;
    PyObject *bids_o = NULL, *policy_o = NULL, *pairs_o = NULL;
    double policy_alpha = 1.0;
    int oversample = 1, foresee = 0, model = 0, race_worlds = 0;
    double race_margin = 0.0;
    int coinche_bid = 0;
    PyObject *shown_o = NULL, *unheld_o = NULL;
    Announced announced = {{-1, -1, -1, -1}, {0, 0, 0, 0}, 1.0};
    if (!PyArg_ParseTuple(args, "iiiiiOOOOiOKiOiOOiKLiid|OidiidLOdiOiiidOOdi", &kind, &code, &seat, &taker,
                          &multiplier, &fixed_o, &seats_o, &need_o, &classes_o, &leader, &trick_o,
                          &played_in, &won, &history_o, &so_far, &melds_o, &belotes_o, &samples,
                          &seed, &node_budget, &infer, &objective, &points_weight, &bids_o,
                          &turned, &bid_mismatch, &judge_depth, &judge_cards, &judge_tau,
                          &judge_budget, &policy_o, &policy_alpha, &oversample, &pairs_o, &foresee,
                          &model, &race_worlds, &race_margin, &shown_o, &unheld_o,
                          &announced.mismatch, &coinche_bid))
        return NULL;
    if (race_worlds < 0 || (race_worlds && (model || !(race_margin >= 0)))) {
        PyErr_SetString(PyExc_ValueError, "race: worlds >= 0, a margin >= 0, and no model_trick");
        return NULL;
    }
    if (foresee && (kind == CLASSIC || code == NT)) {
        PyErr_SetString(PyExc_ValueError, "foresee_melds: melds exist in club and bulgarian, not in No Trump");
        return NULL;
    }
    if (coinche_bid < 0 || coinche_bid > 500) {
        PyErr_SetString(PyExc_ValueError, "coinche_bid: 0 (no bid) or a Coinche bid up to 500");
        return NULL;
    }
    if (model < 0 || model > 2) {
        PyErr_SetString(PyExc_ValueError, "model_trick: 0, 1 or 2");
        return NULL;
    }
    if (oversample < 1 || oversample > 64) {
        PyErr_SetString(PyExc_ValueError, "oversample: 1..64");
        return NULL;
    }
    if (turned < -1 || turned > 31) {
        PyErr_SetString(PyExc_ValueError, "turned: a card 0..31, or -1");
        return NULL;
    }
    if (judge_depth < 0 || !(judge_tau > 0)) {
        PyErr_SetString(PyExc_ValueError, "judge: a depth >= 0 and a tau > 0");
        return NULL;
    }
    if (code < 0 || code > 5 || kind < 0 || kind > 2 || seat < 0 || seat > 3 || taker < 0 ||
        taker > 3 || leader < 0 || leader > 3 || won < 0 || won > 3 || samples < 1) {
        PyErr_SetString(PyExc_ValueError, "kind, code, seat, taker, leader, won or samples out of range");
        return NULL;
    }
    long long buf[32];
    Space *sp = calloc(1, sizeof(Space));
    Play *history = calloc(32, sizeof(Play));
    SeenBid *bids = calloc(MAX_BIDS, sizeof(SeenBid));
    int nbids = 0;
    if (!sp || !history || !bids) {
        free(sp);
        free(history);
        free(bids);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    int trick[4], ntrick, nh = 0, melds[2], belotes[2], npairs = 0;
    uint32_t pairs[4];
    double policy[POLICY_SIZE];
    if (read_ints(fixed_o, 4, 4, buf, "fixed: four masks") < 0) goto done;
    for (int i = 0; i < 4; i++) sp->fixed[i] = (uint32_t)buf[i];
    if (read_ints(seats_o, 3, 3, buf, "seats: three seats") < 0) goto done;
    for (int i = 0; i < 3; i++) sp->seats[i] = (int)(buf[i] & 3);
    if (read_ints(need_o, 3, 3, buf, "need: three counts") < 0) goto done;
    for (int i = 0; i < 3; i++) {
        if (buf[i] < 0 || buf[i] > 8) {
            PyErr_SetString(PyExc_ValueError, "need: 0..8 cards a seat");
            goto done;
        }
        sp->need[i] = (int)buf[i];
    }
    if ((ntrick = read_ints(trick_o, -1, 3, buf, "trick: at most three cards")) < 0) goto done;
    for (int i = 0; i < ntrick; i++) trick[i] = (int)(buf[i] & 31);
    if (read_ints(melds_o, 2, 2, buf, "melds: two numbers") < 0) goto done;
    melds[0] = (int)buf[0];
    melds[1] = (int)buf[1];
    if (read_ints(belotes_o, 2, 2, buf, "belotes: two numbers") < 0) goto done;
    belotes[0] = (int)buf[0];
    belotes[1] = (int)buf[1];
    if (infer & 16) {
        if (shown_o && read_ints(shown_o, 4, 4, buf, "shown_melds: four numbers") < 0) goto done;
        for (int i = 0; shown_o && i < 4; i++) announced.shown[i] = buf[i];
        if (unheld_o && read_ints(unheld_o, 4, 4, buf, "unannounced: four masks") < 0) goto done;
        for (int i = 0; unheld_o && i < 4; i++) announced.unheld[i] = (uint32_t)buf[i];
    }
    if (pairs_o && pairs_o != Py_None) {
        if ((npairs = read_ints(pairs_o, -1, 4, buf, "belote_pairs: at most four masks")) < 0) goto done;
        for (int i = 0; i < npairs; i++) {
            pairs[i] = (uint32_t)buf[i];
            if (popcount32(pairs[i]) != 2) {
                PyErr_SetString(PyExc_ValueError, "belote_pairs: each mask holds two cards");
                goto done;
            }
        }
    }
    {
        PyObject *cs = PySequence_Fast(classes_o, "classes: a sequence");
        if (!cs) goto done;
        Py_ssize_t nc = PySequence_Fast_GET_SIZE(cs);
        if (nc > MAX_CLASSES) {
            Py_DECREF(cs);
            PyErr_SetString(PyExc_ValueError, "classes: at most seven");
            goto done;
        }
        sp->nclass = (int)nc;
        for (Py_ssize_t i = 0; i < nc; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(cs, i);
            PyObject *mask_o, *cards_o;
            if (!PyArg_ParseTuple(item, "OO", &mask_o, &cards_o)) {
                Py_DECREF(cs);
                goto done;
            }
            sp->cmask[i] = (int)(PyLong_AsLong(mask_o) & 7);
            int n = read_ints(cards_o, -1, 24, buf, "a class holds at most 24 cards");
            if (n < 0 || PyErr_Occurred()) {
                Py_DECREF(cs);
                goto done;
            }
            sp->ncards[i] = n;
            for (int j = 0; j < n; j++) sp->cards[i][j] = (int)(buf[j] & 31);
        }
        Py_DECREF(cs);
    }
    {
        PyObject *hs = PySequence_Fast(history_o, "history: a sequence");
        if (!hs) goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(hs);
        if (len > 32) {
            Py_DECREF(hs);
            PyErr_SetString(PyExc_ValueError, "history: at most 32 plays");
            goto done;
        }
        for (Py_ssize_t i = 0; i < len; i++) {
            PyObject *prefix_o;
            int s_, c_;
            unsigned long long gone;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(hs, i), "iiOK", &s_, &c_, &prefix_o,
                                  &gone)) {
                Py_DECREF(hs);
                goto done;
            }
            int n = read_ints(prefix_o, -1, 3, buf, "a play's prefix: at most three cards");
            if (n < 0) {
                Py_DECREF(hs);
                goto done;
            }
            Play *p = &history[nh++];
            p->seat = s_ & 3;
            p->card = c_ & 31;
            p->n = n;
            for (int j = 0; j < n; j++) p->prefix[j] = (int)(buf[j] & 31);
            p->gone = (uint32_t)gone;
        }
        Py_DECREF(hs);
    }
    if (bids_o && bids_o != Py_None) {
        PyObject *bs = PySequence_Fast(bids_o, "bids: a sequence");
        if (!bs) goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(bs);
        if (len > MAX_BIDS) {
            Py_DECREF(bs);
            PyErr_SetString(PyExc_ValueError, "bids: at most 40");
            goto done;
        }
        for (Py_ssize_t i = 0; i < len; i++) {
            int n = read_ints(PySequence_Fast_GET_ITEM(bs, i), -1, 16, buf,
                              "a bid: ten numbers and at most six options");
            if (n < 10) {
                Py_DECREF(bs);
                if (n >= 0) PyErr_SetString(PyExc_ValueError, "a bid: ten numbers and at most six options");
                goto done;
            }
            SeenBid *b = &bids[nbids++];
            b->seat = (int)(buf[0] & 3);
            b->round = (int)buf[1];
            b->turned = (int)(buf[2] & 31);
            b->dealer = (int)buf[3];
            b->pass_legal = (int)buf[4];
            b->contre_legal = (int)buf[5];
            b->recontre_legal = (int)buf[6];
            b->cur = (int)buf[7];
            b->ours = (int)buf[8];
            b->said = (int)buf[9];
            b->nopt = n - 10 > 6 ? 6 : n - 10;
            for (int j = 0; j < b->nopt; j++) b->opts[j] = (int)(buf[10 + j] % 6);
            if (b->round < 0 || b->round > 2 || b->cur < -1 || b->cur > 5 || (b->round < 2 && buf[2] < 0)) {
                Py_DECREF(bs);
                PyErr_SetString(PyExc_ValueError, "a bid: round 0..2, a contract -1..5, a turned card");
                goto done;
            }
        }
        Py_DECREF(bs);
    }
    if (infer & 8) {
        PyObject *ws = policy_o ? PySequence_Fast(policy_o, "policy: a sequence of weights") : NULL;
        if (!ws) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "infer asks for the policy: give its weights");
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(ws) != POLICY_SIZE) {
            Py_DECREF(ws);
            PyErr_Format(PyExc_ValueError, "policy: %d weights", POLICY_SIZE);
            goto done;
        }
        for (int i = 0; i < POLICY_SIZE; i++) {
            policy[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(ws, i));
        }
        Py_DECREF(ws);
        if (PyErr_Occurred()) goto done;
    }
    count_space(sp);
    if (!sp->counts[0][sp->need[0]][sp->need[1]][sp->need[2]]) {
        PyErr_SetString(PyExc_ValueError, "no deal fits the constraints");
        goto done;
    }
    {
        int my_team = seat & 1, tk = taker & 1;
        uint32_t played = (uint32_t)played_in;
        uint32_t legal = legal_mask(kind, code, sp->fixed[seat], trick, ntrick);
        int lcards[8], nl = 0;
        for (uint32_t m = legal; m && nl < 8; m &= m - 1) lcards[nl++] = __builtin_ctz(m);
        double totals[8] = {0};
        double wsum = 0.0;
        long long nodes_used = 0, judge_left = judge_budget;
        double exact = 0.0; /* the weight of the worlds solved exactly (the rest rolled out) */
        uint64_t rng = (uint64_t)seed, mrng = (uint64_t)seed ^ 0xD1B54A32D192ED03ull;
        int failed = 0, won_before[32];
        uint32_t dropped = 0; /* the cards the race stopped solving */
        wins_before(code, history, nh, won_before);
        Py_BEGIN_ALLOW_THREADS
        /* With ``oversample`` > 1, ``samples * oversample`` worlds are drawn and weighed,
         * and ``samples`` of them are picked in proportion to their weights (systematic
         * resampling): the solves go to the plausible worlds. */
        int nsel = samples;
        /* the seats' policy factors and shares of the bids' weight, kept for this decision
         * when there are plays or bids to weigh (none: computed each time) */
        int cached = ((infer & 8) && nh) || ((infer & 2) && nbids);
        FactorCache cache = {cached ? calloc(FACTOR_SLOTS, sizeof(FactorEntry)) : NULL, 0};
        uint32_t (*cand)[4] = NULL;
        double *cw = NULL;
        int *picked = NULL;
        if (oversample > 1) {
            int ncand = samples * oversample;
            cand = malloc(sizeof(uint32_t[4]) * (size_t)ncand);
            cw = malloc(sizeof(double) * (size_t)ncand);
            picked = malloc(sizeof(int) * (size_t)ncand);
            if (!cand || !cw || !picked) {
                failed = 2;
                nsel = 0;
            } else {
                double total = 0.0;
                for (int i = 0; i < ncand; i++) {
                    draw_world(sp, &rng, cand[i]);
                    cw[i] = world_weight_c(kind, code, seat, taker, infer, history, nh, cand[i],
                                           policy, policy_alpha, bids, nbids, turned, bid_mismatch,
                                           &cache, &announced);
                    total += cw[i];
                }
                nsel = resample(cw, ncand, samples, total, &rng, picked);
                if (!nsel) failed = 2;
            }
        }
        /* The worlds and their weights, in order (the judge's budget may end them). */
        uint32_t (*worlds)[4] = malloc(sizeof(uint32_t[4]) * (size_t)(nsel ? nsel : 1));
        double *ww = malloc(sizeof(double) * (size_t)(nsel ? nsel : 1));
        int nw = 0;
        if (!worlds || !ww) {
            failed = 2;
            nsel = 0;
        }
        for (int smp = 0; smp < nsel; smp++) {
            uint32_t *hands = worlds[nw];
            double w;
            if (cand) {
                memcpy(hands, cand[picked[smp]], sizeof(uint32_t[4]));
                w = cw[picked[smp]];
            } else {
                draw_world(sp, &rng, hands);
                w = world_weight_c(kind, code, seat, taker, infer, history, nh, hands, policy,
                                   policy_alpha, bids, nbids, turned, bid_mismatch, &cache,
                                   &announced);
            }
            if ((infer & 4) && judge_depth) {
                /* past the judge's budget no more worlds are drawn (an unjudged world
                 * would count more than a judged one) */
                double judged = solved_likelihood(kind, code, seat, history, nh, won_before, hands,
                                                  judge_depth, judge_cards, judge_tau, &judge_left);
                if (judged < 0) {
                    if (wsum > 0) break;
                    judged = 1.0;
                }
                w *= judged;
            }
            wsum += w;
            ww[nw++] = w;
        }
        /* Every world solved (see ``solve_worlds``), then scored in order. */
        SolveJob job;
        memset(&job, 0, sizeof job);
        job.kind = kind;
        job.code = code;
        job.my_team = my_team;
        job.ntrick = ntrick;
        memcpy(job.trick, trick, sizeof trick);
        job.leader = leader;
        job.won = won;
        job.taker = taker;
        job.model = model && (infer & 8) ? model : 0;
        job.played = played;
        job.policy = policy;
        job.mrng = &mrng;
        job.hands = (const uint32_t(*)[4])worlds;
        /* The race: the first ``n1`` worlds solved for every card, then the cards whose
         * mean is more than ``race_margin`` below the best no more (see ``world_totals``) */
        int n1 = race_worlds > 0 && race_worlds < nw ? race_worlds : nw;
        job.n = n1;
        job.only = FULL_MASK;
        job.left = node_budget;
        job.status = calloc((size_t)(nw ? nw : 1), 1);
        job.nodes = calloc((size_t)(nw ? nw : 1), sizeof(long long));
        job.cards = malloc(sizeof(int[8]) * (size_t)(nw ? nw : 1));
        job.values = malloc(sizeof(int[8]) * (size_t)(nw ? nw : 1));
        job.count = calloc((size_t)(nw ? nw : 1), sizeof(int));
        job.twin = malloc(sizeof(int) * (size_t)(nw ? nw : 1));
        if (!job.status || !job.nodes || !job.cards || !job.values || !job.count || !job.twin) {
            failed = 2;
            nw = 0;
        } else if (nw) {
            mark_twins(&job, 0);
            pthread_mutex_init(&job.mu, NULL);
            solve_worlds(&job);
            pthread_mutex_destroy(&job.mu);
            if (job.failed) {
                failed = 1;
                nw = 0;
            }
        }
        long long nodes_left = node_budget;
        double wsum1 = 0.0;
        for (int i = 0; i < nw; i++) {
            if (i == n1) {
                for (int x = 0; x < i; x++) wsum1 += ww[x];
                double best = -1e300;
                for (int x = 0; x < nl; x++)
                    if (totals[x] / wsum1 > best) best = totals[x] / wsum1;
                for (int x = 0; x < nl; x++)
                    if (best - totals[x] / wsum1 > race_margin) dropped |= 1u << lcards[x];
                job.only = ~dropped;
                job.n = nw;
                mark_twins(&job, n1);
                pthread_mutex_init(&job.mu, NULL);
                solve_worlds(&job);
                pthread_mutex_destroy(&job.mu);
                if (job.failed) {
                    failed = 1;
                    break;
                }
            }
            const uint32_t *hands = worlds[i];
            double w = ww[i];
            /* a belote still to be announced: a seat of this world holding both cards of a
             * pair will announce it with the first of them */
            int bel[2] = {belotes[0], belotes[1]};
            for (int p = 0; p < npairs; p++)
                for (int s = 0; s < 4; s++)
                    if ((hands[s] & pairs[p]) == pairs[p]) bel[s & 1] += 20;
            /* the first trick: every seat declares the best melds of its whole hand with
             * its first card, and the deal score counts those that will count */
            int mel[2] = {melds[0], melds[1]};
            if (foresee) {
                uint32_t dealt[4];
                int fm[2];
                dealt_hands(hands, history, nh, dealt);
                foreseen_melds(kind, code, dealt, leader, fm);
                mel[0] += fm[0];
                mel[1] += fm[1];
            }
            int value[32], solved = 0;
            if (nodes_left > 0) { /* the budget as one thread in order spends it */
                if (job.status[i] == SOLVE_DONE && job.nodes[i] <= nodes_left) {
                    nodes_left -= job.nodes[i];
                    nodes_used += job.nodes[i];
                    for (int c = 0; c < job.count[i]; c++) value[job.cards[i][c]] = job.values[i][c];
                    solved = 1;
                    exact += w;
                } else {
                    nodes_left = 0;
                }
            }
            if (!solved) {
                for (int x = 0; x < nl; x++) {
                    int c = lcards[x];
                    if (dropped >> c & 1) continue;
                    uint32_t h[4];
                    memcpy(h, hands, sizeof h);
                    h[seat] ^= 1u << c;
                    int t[4];
                    memcpy(t, trick, sizeof trick);
                    t[ntrick] = c;
                    int d = rollout(kind, code, taker, h, leader, t, ntrick + 1, played | (1u << c), won);
                    value[c] = my_team == 0 ? d : -d;
                }
            }
            for (int x = 0; x < nl; x++) {
                int c = lcards[x];
                if (dropped >> c & 1) continue;
                if (objective == 1) {
                    totals[x] += w * (double)value[c];
                    continue;
                }
                int diff = so_far + value[c];
                int dv = deal_value(kind, code, multiplier, tk, my_team, diff, mel, bel, coinche_bid);
                totals[x] += w * ((double)dv + points_weight * (double)diff);
            }
        }
        /* a dropped card keeps the mean of the worlds it was solved in */
        if (dropped)
            for (int x = 0; x < nl; x++)
                if (dropped >> lcards[x] & 1) totals[x] = totals[x] * (wsum / wsum1);
        free(worlds);
        free(ww);
        free(job.status);
        free(job.nodes);
        free(job.cards);
        free(job.values);
        free(job.count);
        free(job.twin);
        free(cand);
        free(cw);
        free(picked);
        free(cache.slots);
        Py_END_ALLOW_THREADS
        if (failed) {
            PyErr_NoMemory();
            goto done;
        }
        PyObject *cards_l = PyList_New(nl), *totals_l = PyList_New(nl);
        if (!cards_l || !totals_l) {
            Py_XDECREF(cards_l);
            Py_XDECREF(totals_l);
            goto done;
        }
        for (int i = 0; i < nl; i++) {
            PyList_SET_ITEM(cards_l, i, PyLong_FromLong(lcards[i]));
            PyList_SET_ITEM(totals_l, i, PyFloat_FromDouble(totals[i]));
        }
        /* the judge's solves count too */
        nodes_used += judge_budget - (judge_left > 0 ? judge_left : 0);
        result = Py_BuildValue("(NNdLkd)", cards_l, totals_l, wsum, nodes_used, (unsigned long)dropped,
                               exact);
    }
done:
    free(sp);
    free(history);
    free(bids);
    return result;
}

PyDoc_STRVAR(playouts_doc,
             "playouts(kind, deals, seed) -> total\n\n"
             "Deal ``deals`` random deals (random contract, taker and leader) and play each out "
             "by the rules of thumb, as the search's rollouts do; returns the sum of the card "
             "point differences (the bench times it).");

static PyObject *dds_playouts(PyObject *self, PyObject *args) {
    (void)self;
    int kind;
    long long deals;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iLK", &kind, &deals, &seed)) return NULL;
    if (kind < 0 || kind > 2 || deals < 0) {
        PyErr_SetString(PyExc_ValueError, "kind is 0..2 and deals at least 0");
        return NULL;
    }
    long long total = 0;
    uint64_t rng = (uint64_t)seed;
    Py_BEGIN_ALLOW_THREADS
    for (long long d = 0; d < deals; d++) {
        int deck[32];
        for (int i = 0; i < 32; i++) deck[i] = i;
        for (int i = 31; i > 0; i--) {
            int j = (int)(splitmix(&rng) % (uint64_t)(i + 1));
            int t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        uint32_t hands[4] = {0, 0, 0, 0};
        for (int i = 0; i < 32; i++) hands[i >> 3] |= 1u << deck[i];
        uint64_t r = splitmix(&rng);
        int code = (int)(r % (kind == 2 ? 6 : 4));
        int taker = (int)((r >> 8) & 3), leader = (int)((r >> 16) & 3);
        total += rollout(kind, code, taker, hands, leader, deck, 0, 0, 0);
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(total);
}

PyDoc_STRVAR(rollout_doc,
             "rollout(kind, code, taker, hands, leader, trick, played, won) -> diff\n\n"
             "search.py's ``rollout`` without an exact tail: the deal played out by the rules "
             "of thumb, card points for team 0 from the current trick on, capot included.");

static PyObject *dds_rollout(PyObject *self, PyObject *args) {
    (void)self;
    int kind, code, taker, leader, won;
    unsigned long long played;
    PyObject *hands_o, *trick_o;
    if (!PyArg_ParseTuple(args, "iiiOiOKi", &kind, &code, &taker, &hands_o, &leader, &trick_o,
                          &played, &won))
        return NULL;
    if (code < 0 || code > 5 || kind < 0 || kind > 2 || taker < 0 || taker > 3 || leader < 0 ||
        leader > 3 || won < 0 || won > 3) {
        PyErr_SetString(PyExc_ValueError, "kind, code, taker, leader or won out of range");
        return NULL;
    }
    long long buf[4];
    uint32_t hands[4];
    int trick[4];
    if (read_ints(hands_o, 4, 4, buf, "hands: four masks") < 0) return NULL;
    for (int i = 0; i < 4; i++) hands[i] = (uint32_t)buf[i];
    int n = read_ints(trick_o, -1, 4, buf, "trick: at most four cards");
    if (n < 0) return NULL;
    for (int i = 0; i < n; i++) trick[i] = (int)(buf[i] & 31);
    return PyLong_FromLong(rollout(kind, code, taker, hands, leader, trick, n, (uint32_t)played, won));
}

static PyMethodDef methods[] = {
    {"value", dds_value, METH_VARARGS, value_doc},
    {"root_values", dds_root_values, METH_VARARGS, root_doc},
    {"search_worlds", dds_search_worlds, METH_VARARGS, search_doc},
    {"playouts", dds_playouts, METH_VARARGS, playouts_doc},
    {"rollout", dds_rollout, METH_VARARGS, rollout_doc},
    {"set_threads", dds_set_threads, METH_VARARGS, threads_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds",
    "The double-dummy solver's compiled core (see engine/ai/solver.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__dds(void) {
    build_tables();
    build_binom();
    if (pthread_key_create(&table_key, free) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "cannot create the solver's thread key");
        return NULL;
    }
    pthread_atfork(NULL, NULL, pool_after_fork);
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    NodeLimit = PyErr_NewException("engine.ai._dds.NodeLimit", PyExc_Exception, NULL);
    if (!NodeLimit || PyModule_AddObjectRef(m, "NodeLimit", NodeLimit) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
