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
#include <stdlib.h>
#include <string.h>

#define NT 4
#define AT 5
#define CLASSIC 0
#define CLUB 1
#define INF 10000
#define CAPOT_BONUS 90

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

#define TT_BITS 19 /* 512k entries, 14 MB per thread that solves */
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

/* -- Python interface --------------------------------------------------------------- */

static PyObject *NodeLimit = NULL;

static int parse_state(State *s, PyObject *args) {
    PyObject *hands, *trick;
    long long max_nodes = -1;
    if (!PyArg_ParseTuple(args, "iiiOiOi|L", &s->kind, &s->code, &s->max_team, &hands,
                          &s->leader, &trick, &s->won, &max_nodes))
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
    if (!table) {
        table = calloc(TT_SIZE, sizeof(Entry));
        if (!table) {
            PyErr_NoMemory();
            return -1;
        }
        pthread_setspecific(table_key, table);
    }
    if (++generation == 0) { /* wrapped: forget every entry for real */
        memset(table, 0, TT_SIZE * sizeof(Entry));
        generation = 1;
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
    if (parse_state(&s, args) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    v = search(&s, -INF, INF);
    Py_END_ALLOW_THREADS
    if (s.aborted) return limit_error(&s);
    return Py_BuildValue("(iL)", v, s.nodes);
}

PyDoc_STRVAR(root_doc,
             "root_values(kind, code, max_team, hands, leader, trick, won, max_nodes=-1)"
             " -> ({card: value}, nodes)\n\n"
             "Exact value of every legal card of the seat to move (equivalent cards solved once).");

static PyObject *dds_root_values(PyObject *self, PyObject *args) {
    State s;
    if (parse_state(&s, args) < 0) return NULL;
    int n = s.ntrick, seat = (s.leader + n) & 3, code = s.code;
    uint32_t hand = s.hands[seat];
    if (!hand) {
        PyErr_SetString(PyExc_ValueError, "the seat to move holds no card");
        return NULL;
    }
    uint32_t legal = legal_mask(s.kind, code, hand, s.trick, n);
    uint32_t others = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & ~hand;
    for (int i = 0; i < n; i++) others |= 1u << s.trick[i];
    int cards[8], values[8], nc = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int suit = 0; suit < 4 && !s.aborted; suit++) {
        int have = 0, run_value = 0, run_pts = -1;
        for (int i = 0; i < 8; i++) {
            int c = ORDER[code][suit][i];
            uint32_t bit = 1u << c;
            if (others & bit) {
                have = 0;
            } else if (legal & bit) {
                if (!have || POINTS[code][c] != run_pts) {
                    run_value = play_and_search(&s, c, -INF, INF);
                    if (s.aborted) break;
                    run_pts = POINTS[code][c];
                    have = 1;
                }
                cards[nc] = c;
                values[nc++] = run_value;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (s.aborted) return limit_error(&s);
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int i = 0; i < nc; i++) {
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

static PyMethodDef methods[] = {
    {"value", dds_value, METH_VARARGS, value_doc},
    {"root_values", dds_root_values, METH_VARARGS, root_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds",
    "The double-dummy solver's compiled core (see engine/ai/solver.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__dds(void) {
    build_tables();
    if (pthread_key_create(&table_key, free) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "cannot create the solver's thread key");
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    NodeLimit = PyErr_NewException("engine.ai._dds.NodeLimit", PyExc_Exception, NULL);
    if (!NodeLimit || PyModule_AddObjectRef(m, "NodeLimit", NodeLimit) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
