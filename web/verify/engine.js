// The rules of the game, as engine/ (core.py, match.py, options.py) play them, in the
// browser: the auction of each ruleset (Coinche's valued bids, coinche and surcoinche, and
// its table options), the play obligations (follow, trump, overtrump, undertrump, and
// where club and bulgarian differ), melds, belote, the count of a deal (card points, last
// trick, capot, contre and recontre, hanging points, Bulgarian rounding, Coinche's made or
// failed contract) and the end of the match. The page replays a transcript's actions through this, as `belote verify` replays
// them through the engine, so both say the same of every action and every score.
//
// Cards are ints 0..31 (suit * 8 + rank, suits C D H S, ranks 7 8 9 T J Q K A) and hands
// 32-bit masks, as in engine/cards.py. Masks are kept unsigned (`>>> 0`).
// A classic script (no modules), so that the page also works opened from disk (file://).

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const SUITS = "CDHS";
  const RANKS = "789TJQKA";
  const CARD_TEXTS = [...SUITS].flatMap((s) => [...RANKS].map((r) => r + s));
  const CARD_BY_TEXT = new Map(CARD_TEXTS.map((t, i) => [t, i]));
  const CONTRACT_TEXTS = ["C", "D", "H", "S", "NT", "AT"];
  const NT = 4;
  const AT = 5;

  const RULES = {
    classic: {
      name: "classic",
      target: 1000,
      hasMelds: false,
      auction: "french",
      legal: "classic",
      dealerMustChoose: false,
      contracts: ["C", "D", "H", "S"],
      turnedCard: true,
      packets: [3, 2],
    },
    club: {
      name: "club",
      target: 1000,
      hasMelds: true,
      auction: "french",
      legal: "club",
      dealerMustChoose: true,
      contracts: ["C", "D", "H", "S"],
      turnedCard: true,
      packets: [3, 2],
    },
    bulgarian: {
      name: "bulgarian",
      target: 151,
      hasMelds: true,
      auction: "bulgarian",
      legal: "bulgarian",
      dealerMustChoose: false,
      contracts: CONTRACT_TEXTS,
      turnedCard: false,
      packets: [3, 2],
    },
    // all eight cards before the auction (3, 2, 3); NT and AT only as table options
    coinche: {
      name: "coinche",
      target: 1000,
      hasMelds: false,
      auction: "coinche",
      legal: "classic",
      dealerMustChoose: false,
      contracts: ["C", "D", "H", "S"],
      turnedCard: false,
      packets: [3, 2, 3],
    },
  };
  /** A table's yes/no options, in engine/options.py's declaration order: the rulesets
   * that know each. */
  const OPTIONS = [
    ["no_trump", ["coinche"]],
    ["all_trump", ["coinche"]],
    ["generale", ["coinche"]],
    ["bid_only", ["coinche"]],
  ];
  const OPTION_NAMES = OPTIONS.map(([name]) => name);
  /** The targets a table may set (engine/options.TARGET_RANGE). */
  const TARGET_RANGE = [1, 100000];
  /** Coinche's bids that are not a number of points (engine/contract.py). */
  const CAPOT_BID = 250;
  const GENERALE_BID = 500;
  const BID_WORDS = { [CAPOT_BID]: "capot", [GENERALE_BID]: "generale" };
  const COINCHE_VALUES = [80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT_BID, GENERALE_BID];
  const BID_VALUES = new Map([
    ...COINCHE_VALUES.map((v) => [String(v), v]),
    ["capot", CAPOT_BID],
    ["generale", GENERALE_BID],
    ["générale", GENERALE_BID],
  ]);
  /** What every ruleset deals: four seats, the 32-card deck. */
  const SEATS = 4;
  const DECK_SIZE = 32;

  /** A refused action: `key` and `params` name its reason for i18n.js ("why-…"). */
  class EngineError extends Error {
    constructor(key, params = {}) {
      super(key);
      this.key = key;
      this.params = params;
    }
  }

  // ------------------------------------------------------------------ tables
  const u = (x) => x >>> 0;
  const bit = (c) => u(1 << c);
  const has = (mask, c) => ((mask >>> c) & 1) === 1;
  const SUIT_MASK = [0, 1, 2, 3].map((s) => u(0xff << (8 * s)));
  const RANK_MASK = [0, 1, 2, 3, 4, 5, 6, 7].map((r) =>
    u(bit(r) | bit(8 + r) | bit(16 + r) | bit(24 + r)),
  );
  const TRUMP_ORDER = [0, 1, 6, 4, 7, 2, 3, 5];
  const PLAIN_ORDER = [0, 1, 2, 6, 3, 4, 5, 7];
  const TRUMP_POINTS = [0, 0, 14, 10, 20, 3, 4, 11];
  const PLAIN_POINTS = [0, 0, 0, 10, 2, 3, 4, 11];
  const TRUMP_MASK = [...SUIT_MASK, 0, 0xffffffff];
  const isTrump = (code, c) => has(TRUMP_MASK[code], c);
  const ORDER = [0, 1, 2, 3, 4, 5].map((code) =>
    CARD_TEXTS.map((_, c) => (isTrump(code, c) ? TRUMP_ORDER : PLAIN_ORDER)[c & 7]),
  );
  const POINTS = [0, 1, 2, 3, 4, 5].map((code) =>
    CARD_TEXTS.map((_, c) => (isTrump(code, c) ? TRUMP_POINTS : PLAIN_POINTS)[c & 7]),
  );
  // Coinche's No Trump and All Trump count 162 like a suit contract (engine/core.py):
  // No Trump A T K Q J = 19 10 4 3 2; All Trump J 9 A T K Q = 14 9 6 5 3 1.
  const COINCHE_NT_POINTS = [0, 0, 0, 10, 2, 3, 4, 19];
  const COINCHE_AT_POINTS = [0, 0, 9, 5, 14, 1, 3, 6];
  const COINCHE_POINTS = [
    ...POINTS.slice(0, 4),
    CARD_TEXTS.map((_, c) => COINCHE_NT_POINTS[c & 7]),
    CARD_TEXTS.map((_, c) => COINCHE_AT_POINTS[c & 7]),
  ];
  const HIGHER = [0, 1, 2, 3, 4, 5].map((code) =>
    CARD_TEXTS.map((_, c) => {
      let m = 0;
      for (let d = 0; d < 32; d++) {
        if (d >> 3 === c >> 3 && ORDER[code][d] > ORDER[code][c]) m |= bit(d);
      }
      return u(m);
    }),
  );
  const BELOTE_MASK = [0, 1, 2, 3, 4, 5].map((code) => {
    if (code === NT) return 0;
    let m = 0;
    for (let s = 0; s < 4; s++) {
      if (code === AT || s === code) m |= bit(s * 8 + 5) | bit(s * 8 + 6);
    }
    return u(m);
  });
  const LAST_TRICK = 10;
  const BELOTE_POINTS = 20;

  function popcount(m) {
    let n = 0;
    for (let x = u(m); x; x = u(x & (x - 1))) n++;
    return n;
  }

  function cardsOf(mask) {
    const out = [];
    for (let c = 0; c < 32; c++) if (has(mask, c)) out.push(c);
    return out;
  }

  const cardText = (c) => CARD_TEXTS[c];

  // ------------------------------------------------------------------ tricks
  function winnerIndex(code, trick) {
    const order = ORDER[code];
    let best = trick[0];
    let bi = 0;
    for (let i = 1; i < trick.length; i++) {
      const c = trick[i];
      if (c >> 3 === best >> 3) {
        if (order[c] > order[best]) {
          best = c;
          bi = i;
        }
      } else if (c >> 3 === code) {
        best = c;
        bi = i;
      }
    }
    return bi;
  }

  function legalGiven(kind, code, hand, lead, best, partnerWinning) {
    const follow = u(hand & SUIT_MASK[lead >> 3]);
    if (follow) {
      if (has(TRUMP_MASK[code], lead)) return u(follow & HIGHER[code][best]) || follow;
      return follow;
    }
    if (code >= NT) return hand;
    const trumps = u(hand & SUIT_MASK[code]);
    if (!trumps) return hand;
    if (kind === "club") {
      if (best >> 3 === code) return u(trumps & HIGHER[code][best]) || trumps;
      return trumps;
    }
    if (partnerWinning) return hand;
    if (best >> 3 === code) {
      if (kind === "classic") return u(trumps & HIGHER[code][best]) || trumps;
      return u(trumps & HIGHER[code][best]) || hand;
    }
    return trumps;
  }

  function legalMask(kind, code, hand, trick) {
    const n = trick.length;
    if (n === 0) return hand;
    const bi = winnerIndex(code, trick);
    return legalGiven(kind, code, hand, trick[0], trick[bi], n >= 2 && bi === n - 2);
  }

  // ------------------------------------------------------------------ melds
  const CARRE_POINTS = { 2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100 };

  function runMelds(suit, low, length) {
    if (length < 3) return [];
    if (length === 8) return [...runMelds(suit, 3, 5), ...runMelds(suit, 0, 3)];
    const points = length === 3 ? 20 : length === 4 ? 50 : 100;
    const cards = [];
    for (let r = low; r < low + length; r++) cards.push(suit * 8 + r);
    return [{ kind: "sequence", cards, points, length, top: low + length - 1, suit }];
  }

  function sequences(hand) {
    const out = [];
    for (let s = 0; s < 4; s++) {
      const bits = (hand >>> (8 * s)) & 0xff;
      let r = 0;
      while (r < 8) {
        if ((bits >> r) & 1) {
          const start = r;
          while (r < 8 && (bits >> r) & 1) r++;
          if (r - start >= 3) out.push(...runMelds(s, start, r - start));
        } else r++;
      }
    }
    return out;
  }

  const meldCache = new Map();

  /** The partition of the hand into melds that scores most (engine/core.best_melds). */
  function bestMelds(hand) {
    const cached = meldCache.get(hand);
    if (cached) return cached;
    const carres = [];
    for (let r = 2; r < 8; r++) {
      if (u(hand & RANK_MASK[r]) === RANK_MASK[r]) {
        carres.push({
          kind: "carre",
          cards: [r, 8 + r, 16 + r, 24 + r],
          points: CARRE_POINTS[r],
          length: 4,
          top: r,
          suit: null,
        });
      }
    }
    let best = [];
    let bestPts = -1;
    for (let pick = 0; pick < 1 << carres.length; pick++) {
      const chosen = carres.filter((_, i) => (pick >> i) & 1);
      let rest = hand;
      for (const m of chosen) rest = u(rest & ~RANK_MASK[m.top]);
      const melds = [...chosen, ...sequences(rest)];
      const pts = melds.reduce((n, m) => n + m.points, 0);
      if (pts > bestPts) {
        best = melds;
        bestPts = pts;
      }
    }
    meldCache.set(hand, best);
    return best;
  }

  function cmpKeys(a, b) {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i] ? 1 : -1;
    return 0;
  }

  /** Which declared melds count: [{seat, meld, counts}] (engine/core.counting_melds). */
  function countingMelds(rules, code, declared) {
    const out = [];
    if (rules.legal === "bulgarian") {
      const best = [null, null];
      for (const [seat, melds] of declared) {
        for (const m of melds) {
          if (m.kind !== "sequence") continue;
          const k = [m.length, m.top];
          const t = seat % 2;
          if (best[t] === null || cmpKeys(k, best[t]) > 0) best[t] = k;
        }
      }
      let seqTeam = null;
      if (best[0] === null && best[1] === null) seqTeam = null;
      else if (best[1] === null || (best[0] !== null && cmpKeys(best[0], best[1]) > 0)) seqTeam = 0;
      else if (best[0] === null || cmpKeys(best[1], best[0]) > 0) seqTeam = 1;
      for (const [seat, melds] of declared) {
        for (const m of melds) {
          out.push({ seat, meld: m, counts: m.kind === "carre" || seat % 2 === seqTeam });
        }
      }
      return out;
    }
    let bestKey = null;
    let bestTeam = null;
    for (const [seat, melds] of declared) {
      for (const m of melds) {
        const run = m.kind === "sequence" ? m.length : 0;
        const trump = m.suit !== null && (m.suit === code || code === AT) ? 1 : 0;
        const k = [m.points, run, m.top, trump];
        if (bestKey === null || cmpKeys(k, bestKey) > 0) {
          bestKey = k;
          bestTeam = seat % 2;
        }
      }
    }
    for (const [seat, melds] of declared) {
      for (const m of melds) out.push({ seat, meld: m, counts: seat % 2 === bestTeam });
    }
    return out;
  }

  // ------------------------------------------------------------------ scoring
  function scoreFrench(takerTeam, cardPts, tricks, melds, belotes) {
    const cards = [...cardPts];
    const capot = tricks[1] === 0 ? 0 : tricks[0] === 0 ? 1 : null;
    if (capot !== null) {
      cards[capot] = 252;
      cards[1 - capot] = 0;
    }
    const tk = takerTeam;
    const df = 1 - takerTeam;
    const tot = [0, 1].map((i) => cards[i] + melds[i] + belotes[i]);
    let pts = [0, 0];
    let held = 0;
    let outcome;
    if (tot[tk] > tot[df]) {
      pts = [...tot];
      outcome = "made";
    } else if (tot[tk] < tot[df]) {
      pts[df] = (capot === df ? 252 : 162) + melds[0] + melds[1] + belotes[df];
      pts[tk] = belotes[tk];
      outcome = "set";
    } else {
      pts[df] = tot[df];
      pts[tk] = belotes[tk];
      held = cards[tk] + melds[tk];
      outcome = "dispute";
    }
    return { totals: tot, points: pts, outcome, held };
  }

  /**
   * Coinche (engine/core.score_coinche): a bid of points is made when the takers' card
   * points and belote reach it, capot when their side takes every trick, générale when the
   * taker alone does. Made, not coinched: takers bid + card points (`bidOnly`: the bid),
   * defence its card points; coinched or surcoinched: takers 160 (252 on their capot) +
   * bid x multiplier, defence nothing. Failed: defence 160 + bid x multiplier. Belotes go
   * to whoever announced them, on top.
   */
  function scoreCoinche(contract, cardPts, tricks, belotes, takerTookAll, bidOnly) {
    const tk = contract.taker % 2;
    const df = 1 - tk;
    const cards = [...cardPts];
    if (tricks[df] === 0) {
      cards[tk] = 252;
      cards[df] = 0;
    } else if (tricks[tk] === 0) {
      cards[df] = 252;
      cards[tk] = 0;
    }
    const bid = contract.bid || 0;
    const mult = contract.multiplier;
    let made;
    if (bid === GENERALE_BID) made = takerTookAll;
    else if (bid === CAPOT_BID) made = tricks[df] === 0;
    else made = cards[tk] + belotes[tk] >= bid;
    const pts = [0, 0];
    if (made && mult === 1) {
      pts[tk] = bid + (bidOnly ? 0 : cards[tk]);
      pts[df] = cards[df];
    } else if (made) pts[tk] = (tricks[df] === 0 ? 252 : 160) + bid * mult;
    else pts[df] = 160 + bid * mult;
    pts[0] += belotes[0];
    pts[1] += belotes[1];
    const totals = [cards[0] + belotes[0], cards[1] + belotes[1]];
    return { totals, points: pts, outcome: made ? "made" : "set", held: 0 };
  }

  /**
   * What is wrong with a table's rules (engine/options.TableRules.from_dict): an unknown
   * option, or one the ruleset does not know, or a target out of range, as [key, params];
   * null when they are good. `options` is a transcript's, already names to true/false.
   */
  function tableProblem(ruleset, target, options) {
    const unknown = Object.keys(options)
      .filter((name) => !OPTION_NAMES.includes(name))
      .sort();
    if (unknown.length)
      return [
        "table-option-unknown",
        { option: unknown[0].slice(0, 20), known: [...OPTION_NAMES].sort().join(", ") },
      ];
    const [low, high] = TARGET_RANGE;
    if (target !== null && target !== undefined && !(target >= low && target <= high))
      return ["table-target-range", { low, high }];
    for (const [name, rulesets] of OPTIONS) {
      if (options[name] === true && !rulesets.includes(ruleset))
        return ["table-option-ruleset", { option: name, rulesets: rulesets.join(", ") }];
    }
    return null;
  }

  const ROUND_UP_FROM = [6, 6, 6, 6, 6, 5];
  const BOTH_END = [6, 6, 6, 6, 5, 4];
  const SMALLER_UP = [0, 0, 0, 0, 1, 1];
  const roundOne = (x, code) => Math.floor(x / 10) + (x % 10 >= ROUND_UP_FROM[code] ? 1 : 0);

  function roundPair(a, b, code) {
    let ra = roundOne(a, code);
    let rb = roundOne(b, code);
    if (a !== b && a % 10 === BOTH_END[code] && b % 10 === BOTH_END[code]) {
      if (a < b) ra = Math.floor(a / 10) + SMALLER_UP[code];
      else rb = Math.floor(b / 10) + SMALLER_UP[code];
    }
    return [ra, rb];
  }

  function scoreBulgarian(code, multiplier, ct, cardPts, tricks, melds, belotes) {
    const f = code === NT ? 2 : 1;
    const tot = [0, 1].map((i) => cardPts[i] * f + melds[i] + belotes[i]);
    if (tricks[1] === 0) tot[0] += 90;
    else if (tricks[0] === 0) tot[1] += 90;
    const ot = 1 - ct;
    let pts = [0, 0];
    let held = 0;
    let outcome;
    if (multiplier === 1) {
      if (tot[ct] > tot[ot]) {
        pts = roundPair(tot[0], tot[1], code);
        outcome = "made";
      } else if (tot[ct] < tot[ot]) {
        pts[ot] = roundOne(tot[0] + tot[1], code);
        outcome = "set";
      } else {
        const r = roundPair(tot[0], tot[1], code);
        pts[ot] = r[ot];
        held = r[ct];
        outcome = "hanging";
      }
    } else {
      const whole = roundOne((tot[0] + tot[1]) * multiplier, code);
      if (tot[ct] > tot[ot]) {
        pts[ct] = whole;
        outcome = "made";
      } else if (tot[ct] < tot[ot]) {
        pts[ot] = whole;
        outcome = "set";
      } else {
        held = whole;
        outcome = "hanging";
      }
    }
    return { totals: tot, points: pts, outcome, held };
  }

  // ------------------------------------------------------------------ actions
  /** Read an action text as engine/actions.Action.parse does; EngineError else. */
  function parseAction(text) {
    if (typeof text !== "string")
      throw new EngineError("why-unknown", { action: String(text).slice(0, 30) });
    const words = text.trim().split(/\s+/).filter(Boolean);
    if (!words.length) throw new EngineError("why-unknown", { action: "" });
    const kind = words[0].toLowerCase();
    const rest = words.slice(1).map((w) => w.toLowerCase());
    const words1 = ["pass", "take", "contre", "recontre", "coinche", "surcoinche"];
    if (words1.includes(kind) && !rest.length) return { kind };
    if (kind === "bid" && rest.length === 1 && CONTRACT_TEXTS.includes(rest[0].toUpperCase()))
      return { kind, contract: rest[0].toUpperCase() };
    if (
      kind === "bid" &&
      rest.length === 2 &&
      CONTRACT_TEXTS.includes(rest[1].toUpperCase()) &&
      BID_VALUES.has(rest[0])
    )
      return { kind, contract: rest[1].toUpperCase(), value: BID_VALUES.get(rest[0]) };
    if (kind === "play" && rest.length) {
      let t = words[1].toUpperCase();
      if (t.startsWith("10")) t = "T" + t.slice(2);
      const card = CARD_BY_TEXT.get(t);
      if (card === undefined)
        throw new EngineError("why-unknown", { action: text.trim().slice(0, 30) });
      const flags = rest.slice(1).join(" ");
      if (["", "belote", "melds", "melds belote", "belote melds"].includes(flags)) {
        return { kind, card, belote: flags.includes("belote"), melds: flags.includes("melds") };
      }
    }
    throw new EngineError("why-unknown", { action: text.trim().slice(0, 30) });
  }

  function actionText(a) {
    if (a.kind === "bid" && a.value !== undefined)
      return `bid ${BID_WORDS[a.value] || a.value} ${a.contract}`;
    if (a.kind === "bid") return `bid ${a.contract}`;
    if (a.kind === "play")
      return `play ${cardText(a.card)}${a.melds ? " melds" : ""}${a.belote ? " belote" : ""}`;
    return a.kind;
  }

  // ------------------------------------------------------------------ the match
  /**
   * A match of one ruleset (engine/match.Match), dealt by `deckFor(k)` (an array of 32
   * card ints), with the table's `options` ({no_trump: true, ...}, checked by
   * tableProblem). `apply(seat, text)` plays one action or throws EngineError, changing
   * nothing; `deals` holds each deal as dealt, with its result once counted.
   */
  class Match {
    constructor(ruleset, deckFor, target, options = {}) {
      const rules = RULES[ruleset];
      if (!rules) throw new EngineError("why-ruleset", { ruleset: String(ruleset).slice(0, 20) });
      if (target !== null && target !== undefined && !(Number.isInteger(target) && target > 0))
        throw new EngineError("why-target");
      if (tableProblem(rules.name, target, options)) throw new EngineError("why-options");
      this.rules = rules;
      this.target = target ?? rules.target;
      this.deckFor = deckFor;
      this.points = rules.auction === "coinche" ? COINCHE_POINTS : POINTS;
      this.bidOnly = options.bid_only === true;
      this.contracts = [
        ...rules.contracts,
        ...(options.no_trump === true ? ["NT"] : []),
        ...(options.all_trump === true ? ["AT"] : []),
      ];
      this.bidValues = COINCHE_VALUES.filter(
        (v) => v !== GENERALE_BID || options.generale === true,
      );
      this.scores = [0, 0];
      this.hanging = 0;
      this.deals = [];
      this.phase = "bidding";
      this.winner = null;
      this.toMove = null;
      this.startDeal();
    }

    startDeal() {
      const k = this.deals.length;
      this.k = k;
      this.dealer = k % 4;
      const deck = this.deckFor(k);
      this.deck = deck;
      const hands = [0, 0, 0, 0];
      let pos = 0;
      for (const packet of this.rules.packets) {
        for (let i = 1; i < 5; i++) {
          const seat = (this.dealer + i) % 4;
          for (const c of deck.slice(pos, pos + packet)) hands[seat] = u(hands[seat] | bit(c));
          pos += packet;
        }
      }
      this.hands = hands;
      this.turned = this.rules.turnedCard ? deck[20] : null;
      this.record = {
        k,
        dealer: this.dealer,
        deck,
        turned: this.turned,
        hands: [],
        contract: null,
        actions: [],
        result: null,
      };
      this.deals.push(this.record);
      this.round = 1;
      this.passes = 0;
      this.contract = null;
      this.bidCode = null;
      this.bidSeat = null;
      this.bidValue = 0; // coinche: the standing bid's value (0: none yet)
      this.mult = 1;
      this.takerTookAll = true; // coinche's générale: the taker won every trick so far
      this.trick = [];
      this.trickSeats = [];
      this.tricksDone = 0;
      this.cardPts = [0, 0];
      this.tricksWon = [0, 0];
      this.belotePts = [0, 0];
      this.declared = [];
      this.meldPts = [0, 0];
      this.phase = "bidding";
      this.toMove = (this.dealer + 1) % 4;
    }

    finishDealing() {
      const taker = this.contract.taker;
      let pos = 4 * this.rules.packets.reduce((a, b) => a + b, 0);
      if (this.rules.turnedCard) {
        this.hands[taker] = u(this.hands[taker] | bit(this.turned));
        pos = 21;
      }
      for (let i = 1; i < (pos < 32 ? 5 : 1); i++) {
        const seat = (this.dealer + i) % 4;
        const n = this.rules.turnedCard && seat === taker ? 2 : 3;
        for (const c of this.deck.slice(pos, pos + n))
          this.hands[seat] = u(this.hands[seat] | bit(c));
        pos += n;
      }
      this.record.hands = this.hands.map(cardsOf);
      this.record.contract = { ...this.contract };
      this.phase = "play";
      this.toMove = (this.dealer + 1) % 4;
    }

    legalBids(seat) {
      if (this.rules.auction === "french") {
        if (this.round === 1) return ["pass", "take"];
        const turnedSuit = CONTRACT_TEXTS[this.turned >> 3];
        const bids = ["C", "D", "H", "S"].filter((s) => s !== turnedSuit).map((s) => `bid ${s}`);
        if (this.rules.dealerMustChoose && seat === this.dealer && this.passes === 7) return bids;
        return ["pass", ...bids];
      }
      if (this.rules.auction === "coinche") return this.legalCoincheBids(seat);
      const out = ["pass"];
      const low = this.bidCode === null ? -1 : this.bidCode;
      for (const t of CONTRACT_TEXTS.slice(low + 1)) out.push(`bid ${t}`);
      if (this.bidCode !== null) {
        const sameTeam = seat % 2 === this.bidSeat % 2;
        if (this.mult === 1 && !sameTeam) out.push("contre");
        else if (this.mult === 2 && sameTeam) out.push("recontre");
      }
      return out;
    }

    /** Pass; any higher bid while nobody has coinched; coinche by an opponent of the
     * standing bidder; surcoinche by the bidding side once coinched. */
    legalCoincheBids(seat) {
      const out = ["pass"];
      if (this.mult === 1) {
        for (const v of this.bidValues) {
          if (v <= this.bidValue) continue;
          for (const t of this.contracts)
            out.push(actionText({ kind: "bid", contract: t, value: v }));
        }
      }
      if (this.bidSeat !== null) {
        const sameTeam = seat % 2 === this.bidSeat % 2;
        if (this.mult === 1 && !sameTeam) out.push("coinche");
        else if (this.mult === 2 && sameTeam) out.push("surcoinche");
      }
      return out;
    }

    /** Why a Coinche call is not allowed now (engine/match._coinche_refusal). */
    whyCoincheIllegal(seat, action) {
      const standing = this.bidSeat !== null;
      const sameTeam = standing && seat % 2 === this.bidSeat % 2;
      if (action.kind === "coinche") {
        if (!standing) return ["why-coinche-no-bid"];
        if (this.mult > 1) return ["why-coinche-twice"];
        return ["why-coinche-own-side"];
      }
      if (action.kind === "surcoinche") {
        if (this.mult === 2 && !sameTeam) return ["why-surcoinche-defence"];
        return ["why-surcoinche-no-coinche"];
      }
      if (action.kind === "bid") {
        if (action.value === undefined) return ["why-bid-value"];
        if (this.mult > 1) return ["why-bid-after-coinche"];
        if (!this.contracts.includes(action.contract))
          return ["why-bid-contract", { contract: action.contract }];
        if (!this.bidValues.includes(action.value)) return ["why-bid-range"];
        return ["why-bid-higher"];
      }
      return ["why-bid-kind"];
    }

    legalCards(seat) {
      return legalMask(
        this.rules.legal,
        CONTRACT_CODE[this.contract.trump],
        this.hands[seat],
        this.trick,
      );
    }

    canMeld(seat) {
      return (
        this.rules.hasMelds &&
        CONTRACT_CODE[this.contract.trump] !== NT &&
        this.tricksDone === 0 &&
        bestMelds(this.hands[seat]).length > 0
      );
    }

    beloteMask(seat) {
      const hand = this.hands[seat];
      const code = CONTRACT_CODE[this.contract.trump];
      let kq = u(BELOTE_MASK[code] & hand);
      kq = u(kq & (u((kq << 1) & 0x40404040) | ((kq >>> 1) & 0x20202020)));
      if (code === AT && this.trick.length) kq = u(kq & SUIT_MASK[this.trick[0] >> 3]);
      return kq;
    }

    /** Check and play one action; EngineError (nothing changed) when it is not allowed. */
    apply(seat, text) {
      if (this.phase === "over") throw new EngineError("why-over");
      const action = parseAction(text);
      if (!(Number.isInteger(seat) && seat >= 0 && seat < 4))
        throw new EngineError("why-no-seat", { seat: String(seat + 1).slice(0, 20) });
      if (seat !== this.toMove)
        throw new EngineError("why-turn", { turn: this.toMove + 1, seat: seat + 1 });
      if (this.phase === "bidding") {
        if (!this.legalBids(seat).includes(actionText(action)))
          throw new EngineError(...this.whyBidIllegal(seat, action));
        this.record.actions.push([seat, actionText(action)]);
        this.applyBid(seat, action);
      } else {
        this.checkPlay(seat, action);
        this.record.actions.push([seat, actionText(action)]);
        this.applyPlay(seat, action);
      }
    }

    whyBidIllegal(seat, action) {
      if (action.kind === "play") return ["why-bidding"];
      if (this.rules.auction === "coinche") return this.whyCoincheIllegal(seat, action);
      if (action.kind === "pass") return ["why-dealer-must"];
      if (["contre", "recontre", "coinche", "surcoinche"].includes(action.kind))
        return ["why-no-double", { action: action.kind }];
      if (action.kind === "bid" && action.value !== undefined)
        return ["why-no-value", { contract: action.contract, ruleset: this.rules.name }];
      if (action.kind === "take" && !this.rules.turnedCard) return ["why-no-turned"];
      if (action.kind === "take") return ["why-take-round"];
      if (this.rules.auction === "french" && this.round === 1) return ["why-round1"];
      if (!this.rules.contracts.includes(action.contract))
        return ["why-contract", { contract: action.contract, ruleset: this.rules.name }];
      if (this.rules.auction === "french") return ["why-round2"];
      return ["why-higher"];
    }

    applyBid(seat, action) {
      const next = (seat + 1) % 4;
      if (this.rules.auction === "french") {
        if (action.kind === "pass") {
          this.passes++;
          if (this.passes === 8) return this.redeal();
          if (this.passes === 4) this.round = 2;
          this.toMove = next;
          return;
        }
        const trump = action.kind === "take" ? CONTRACT_TEXTS[this.turned >> 3] : action.contract;
        this.contract = { trump, taker: seat, multiplier: 1 };
        return this.finishDealing();
      }
      if (this.rules.auction === "coinche") return this.applyCoincheBid(seat, action);
      if (action.kind === "pass") {
        this.passes++;
        if (this.bidCode === null && this.passes === 4) return this.redeal();
        if (this.bidCode !== null && this.passes === 3) {
          this.contract = {
            trump: CONTRACT_TEXTS[this.bidCode],
            taker: this.bidSeat,
            multiplier: this.mult,
          };
          return this.finishDealing();
        }
      } else {
        this.passes = 0;
        if (action.kind === "bid") {
          this.bidCode = CONTRACT_CODE[action.contract];
          this.bidSeat = seat;
          this.mult = 1;
        } else this.mult = action.kind === "contre" ? 2 : 4;
      }
      this.toMove = next;
    }

    /** Four passes with no bid: redeal; three passes after a bid or a coinche: play; a
     * surcoinche: play at once (engine/match._apply_coinche_bid). */
    applyCoincheBid(seat, action) {
      const next = (seat + 1) % 4;
      if (action.kind === "pass") {
        this.passes++;
        if (this.bidSeat === null && this.passes === 4) return this.redeal();
        if (this.bidSeat === null || this.passes < 3) {
          this.toMove = next;
          return;
        }
      } else if (action.kind === "bid") {
        this.passes = 0;
        this.bidCode = CONTRACT_CODE[action.contract];
        this.bidSeat = seat;
        this.bidValue = action.value;
        this.toMove = next;
        return;
      } else if (action.kind === "coinche") {
        this.passes = 0;
        this.mult = 2;
        this.toMove = next;
        return;
      } else this.mult = 4; // surcoinche
      this.contract = {
        trump: CONTRACT_TEXTS[this.bidCode],
        taker: this.bidSeat,
        multiplier: this.mult,
        bid: this.bidValue,
      };
      this.finishDealing();
    }

    redeal() {
      this.record.hands = this.hands.map(cardsOf);
      this.startDeal();
    }

    checkPlay(seat, action) {
      if (action.kind !== "play") throw new EngineError("why-play");
      const card = action.card;
      const hand = this.hands[seat];
      if (!has(hand, card))
        throw new EngineError("why-not-held", { seat: seat + 1, card: cardText(card) });
      const mask = this.legalCards(seat);
      if (!has(mask, card)) throw new EngineError(...this.whyCardIllegal(seat, card, mask));
      if (action.belote && !has(this.beloteMask(seat), card))
        throw new EngineError("why-belote", { card: cardText(card) });
      if (action.melds && !this.canMeld(seat)) throw new EngineError("why-melds");
    }

    whyCardIllegal(seat, card, mask) {
      const ls = this.trick[0] >> 3;
      const hand = this.hands[seat];
      const code = CONTRACT_CODE[this.contract.trump];
      const allowed = cardsOf(mask).map(cardText).join(" ");
      const played = cardText(card);
      if (u(hand & SUIT_MASK[ls]) && card >> 3 !== ls)
        return ["why-follow", { card: played, suit: SUITS[ls], allowed }];
      if (card >> 3 === ls) return ["why-beat", { card: played, suit: SUITS[ls], allowed }];
      if (code < 4 && u(mask & TRUMP_MASK[code])) {
        if (u(mask & TRUMP_MASK[code]) !== u(hand & TRUMP_MASK[code]))
          return ["why-overtrump", { card: played, allowed }];
        return ["why-trump", { card: played, suit: SUITS[code], allowed }];
      }
      return ["why-only", { card: played, allowed }];
    }

    applyPlay(seat, action) {
      const card = action.card;
      if (action.melds) this.declared.push([seat, bestMelds(this.hands[seat])]);
      if (action.belote) this.belotePts[seat % 2] += BELOTE_POINTS;
      this.hands[seat] = u(this.hands[seat] & ~bit(card));
      this.trick.push(card);
      this.trickSeats.push(seat);
      if (this.trick.length < 4) {
        this.toMove = (seat + 1) % 4;
        return;
      }
      const code = CONTRACT_CODE[this.contract.trump];
      const w = this.trickSeats[winnerIndex(code, this.trick)];
      let pts = 0;
      for (const c of this.trick) pts += this.points[code][c];
      if (w !== this.contract.taker) this.takerTookAll = false;
      const last = this.tricksDone === 7;
      if (last) pts += LAST_TRICK;
      this.cardPts[w % 2] += pts;
      this.tricksWon[w % 2] += 1;
      this.tricksDone++;
      this.trick = [];
      this.trickSeats = [];
      if (this.tricksDone === 1 && this.rules.hasMelds && this.declared.length) {
        for (const { seat: s, meld, counts } of countingMelds(this.rules, code, this.declared)) {
          if (counts) this.meldPts[s % 2] += meld.points;
        }
      }
      if (last) return this.endDeal();
      this.toMove = w;
    }

    endDeal() {
      const c = this.contract;
      const code = CONTRACT_CODE[c.trump];
      const takerTeam = c.taker % 2;
      const ds =
        this.rules.auction === "coinche"
          ? scoreCoinche(
              c,
              this.cardPts,
              this.tricksWon,
              this.belotePts,
              this.takerTookAll,
              this.bidOnly,
            )
          : this.rules.auction === "french"
            ? scoreFrench(takerTeam, this.cardPts, this.tricksWon, this.meldPts, this.belotePts)
            : scoreBulgarian(
                code,
                c.multiplier,
                takerTeam,
                this.cardPts,
                this.tricksWon,
                this.meldPts,
                this.belotePts,
              );
      const paid = [0, 0];
      if (this.hanging && (ds.outcome === "made" || ds.outcome === "set")) {
        const [p0, p1] = ds.points;
        if (p0 !== p1) {
          paid[p0 > p1 ? 0 : 1] = this.hanging;
          this.hanging = 0;
        } else if (ds.outcome === "made") {
          paid[takerTeam] = this.hanging;
          this.hanging = 0;
        }
      }
      this.hanging += ds.held;
      const s0 = this.scores[0] + ds.points[0] + paid[0];
      const s1 = this.scores[1] + ds.points[1] + paid[1];
      this.scores = [s0, s1];
      const capot = this.tricksWon[1] === 0 ? 0 : this.tricksWon[0] === 0 ? 1 : null;
      // the same fields, in the same order, as engine.match.DealResult.to_dict()
      this.record.result = {
        k: this.k,
        contract: contractDict(c),
        card_points: [...this.cardPts],
        tricks: [...this.tricksWon],
        melds: [...this.meldPts],
        belotes: [...this.belotePts],
        totals: [...ds.totals],
        outcome: ds.outcome,
        points: [...ds.points],
        held: ds.held,
        paid,
        scores: [s0, s1],
        capot,
      };
      if (this.matchIsWon(capot)) {
        this.winner = s0 > s1 ? 0 : 1;
        this.phase = "over";
        this.toMove = null;
        return;
      }
      this.startDeal();
    }

    matchIsWon(capot) {
      const [s0, s1] = this.scores;
      if (Math.max(s0, s1) < this.target || s0 === s1) return false;
      return !(this.rules.name === "bulgarian" && capot !== null);
    }
  }

  const CONTRACT_CODE = Object.fromEntries(CONTRACT_TEXTS.map((t, i) => [t, i]));

  /** A contract as engine.contract.Contract.to_dict() writes it: `bid` only when set. */
  function contractDict(c) {
    const d = { trump: c.trump, taker: c.taker, multiplier: c.multiplier };
    if (c.bid !== undefined && c.bid !== null) d.bid = c.bid;
    return d;
  }

  /** A contract as people read it (engine.contract.Contract.text): "90 H coinche". */
  function contractText(c) {
    if (c.bid !== undefined && c.bid !== null)
      return `${BID_WORDS[c.bid] || c.bid} ${c.trump}${{ 1: "", 2: " coinche", 4: " surcoinche" }[c.multiplier] ?? ""}`;
    return `${c.trump}${{ 1: "", 2: " contre", 4: " recontre" }[c.multiplier] ?? ""}`;
  }

  BeloteVerify.engine = {
    AT,
    BID_WORDS,
    CARD_TEXTS,
    COINCHE_POINTS,
    CARD_BY_TEXT,
    CONTRACT_TEXTS,
    DECK_SIZE,
    EngineError,
    Match,
    NT,
    OPTIONS,
    RULES,
    SEATS,
    bestMelds,
    cardText,
    cardsOf,
    countingMelds,
    legalMask,
    parseAction,
    popcount,
    roundPair,
    scoreBulgarian,
    scoreCoinche,
    scoreFrench,
    contractDict,
    contractText,
    tableProblem,
    winnerIndex,
  };
})();
