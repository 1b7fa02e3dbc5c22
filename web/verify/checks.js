// The checks `belote verify` makes (bot/proof/verify.py), made again in the browser from
// the transcript alone, with the same names, statuses and deals: the commitment, drand's
// signature (and, when asked, drand's own answer), the table, then deal by deal the deck,
// the hands, every bid and card (replayed through engine.js) and the count, then the
// result. tests/corpus/ holds both checkers to the same verdicts.
//
// A check is {id, name, status, deal, key, params}: status "ok", "fail", "unchecked" (a
// check that had to be made could not be: the verdict is "not verified", never "fair") or
// "skip" (drand's own answer, an optional extra, not had); deal is the deal it is about,
// numbered from 1 as people count them (the recipe's k is deal - 1); key and params make
// its sentence in the reader's language (i18n.js).
// A classic script (no modules), so that the page also works opened from disk (file://).

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const { QUICKNET, RECIPE, deckMaker, fromHex, isHex, sha256Sync, toHex, verifyBeacon } =
    BeloteVerify.recipe;
  const { CARD_TEXTS, DECK_SIZE, Match, RULES, SEATS, contractText, tableProblem } =
    BeloteVerify.engine;

  const PUBLIC_RELAYS = [
    "https://api.drand.sh",
    "https://api2.drand.sh",
    "https://api3.drand.sh",
    "https://drand.cloudflare.com",
  ];
  /** The largest round read exactly (Number.MAX_SAFE_INTEGER), as verify.MAX_ROUND. */
  const MAX_ROUND = Number.MAX_SAFE_INTEGER;
  const CUMULATIVE = new Set(["paid", "scores"]);

  /** JSON equality as bot/proof/verify.same: numbers by value, true is not 1. */
  function same(a, b) {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }

  const short = (v) => {
    const text = typeof v === "string" ? v : (JSON.stringify(v) ?? "null");
    return text.length > 160 ? `${text.slice(0, 157)}…` : text;
  };

  /** The checks of one transcript, in report order, and the verdict they make. */
  class Report {
    constructor() {
      this.checks = [];
      this.fails = 0;
    }
    add(name, status, key, params = {}, deal = null) {
      this.checks.push({ id: this.checks.length, name, status, key, params, deal });
      if (status === "fail") this.fails++;
    }
    get verdict() {
      if (this.checks.some((c) => c.status === "fail")) return "unfair";
      if (!this.checks.length || this.checks.some((c) => c.status === "unchecked"))
        return "not-verified";
      return "fair";
    }
    get deals() {
      const set = new Set();
      for (const c of this.checks) if (c.status === "fail" && c.deal !== null) set.add(c.deal);
      return [...set].sort((a, b) => a - b);
    }
  }

  /**
   * Run every check on a parsed transcript. Returns {checks, verdict, deals}. The drand
   * relays are asked (when `online`) while the deals are checked.
   */
  async function runChecks(t, { online = true, relays = PUBLIC_RELAYS, timeoutMs = 5000 } = {}) {
    const report = new Report();
    checkCommitment(t, report);
    const drandOk = await checkDrand(t, report);
    let asked = null;
    let onlineAt = null;
    if (drandOk && t.drand) {
      onlineAt = report.checks.length;
      report.add("drand online", "skip", "online-not-asked");
      if (online) asked = askDrand(t.drand, relays, timeoutMs);
    }
    if (t.serverSeed !== null && checkTable(t, report)) {
      const inputs = deckInputs(t, report);
      if (inputs) {
        try {
          replay(t, inputs, report);
        } catch (err) {
          report.add("replay", "unchecked", "replay-broke", { why: String(err && err.message) });
        }
      }
    }
    if (asked) {
      const [status, key, params] = await asked;
      Object.assign(report.checks[onlineAt], { status, key, params });
    }
    return { checks: report.checks, verdict: report.verdict, deals: report.deals };
  }

  function checkCommitment(t, report) {
    if (t.serverSeed === null) {
      report.add("commitment", "unchecked", "commitment-unrevealed");
      return;
    }
    if (!isHex(t.serverSeed, 32)) {
      report.add("commitment", "fail", "commitment-not-hex");
      return;
    }
    const digest = toHex(sha256Sync(fromHex(t.serverSeed)));
    if (digest === t.commitment)
      report.add("commitment", "ok", "commitment-ok", { seed: t.serverSeed });
    else
      report.add("commitment", "fail", "commitment-differs", {
        digest,
        commitment: short(t.commitment),
      });
  }

  /** The drand check; true when its value is quicknet's (the online ask may follow). */
  async function checkDrand(t, report) {
    const d = t.drand;
    if (d === null) {
      report.add("drand", "ok", "drand-none");
      return false;
    }
    if (d.chain !== QUICKNET.chain) {
      report.add("drand", "fail", "drand-chain", { chain: short(d.chain) });
      return false;
    }
    if (!(Number.isSafeInteger(d.round) && d.round >= 1 && d.round <= MAX_ROUND)) {
      report.add("drand", "fail", "drand-round", { round: String(d.round) });
      return false;
    }
    if (!isHex(d.value, 32) || !isHex(d.signature, 48)) {
      report.add("drand", "fail", "drand-not-hex");
      return false;
    }
    const hashed = toHex(sha256Sync(fromHex(d.signature)));
    const bls = hashed === d.value ? await verifyBeacon(d.round, d.signature) : { ok: false };
    if (bls.ok) {
      report.add("drand", "ok", "drand-ok", { round: d.round });
      return true;
    }
    report.add("drand", "fail", "drand-bad", { round: d.round });
    return false;
  }

  async function fetchRound(relay, chain, round, timeoutMs) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const url = `${relay.replace(/\/+$/, "")}/${chain}/public/${round}`;
      const answer = await fetch(url, {
        signal: controller.signal,
        cache: "no-store",
        credentials: "omit",
      });
      if (!answer.ok) throw new Error(`${relay} answered ${answer.status}`);
      const body = await answer.json();
      if (
        !body ||
        body.round !== round ||
        !isHex(body.randomness, 32) ||
        !isHex(body.signature, 48)
      ) {
        throw new Error(`${relay} answered something that is not round ${round}`);
      }
      return { relay, value: body.randomness.toLowerCase() };
    } catch (err) {
      throw new Error(
        err.name === "AbortError" ? `${relay} did not answer in time` : err.message || String(err),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** drand's own answer for the round: [status, key, params]; never throws. */
  async function askDrand(d, relays, timeoutMs) {
    let served;
    try {
      served = await Promise.any(relays.map((r) => fetchRound(r, d.chain, d.round, timeoutMs)));
    } catch (err) {
      const why = (err.errors || [err]).map((e) => e.message).join("; ");
      return ["skip", "online-unreachable", { round: d.round, why }];
    }
    const host = served.relay.replace(/^https?:\/\//, "");
    if (served.value === d.value) return ["ok", "online-ok", { round: d.round, host }];
    return ["fail", "online-differs", { round: d.round, host, served: served.value }];
  }

  function checkTable(t, report) {
    let why = null;
    if (t.recipe !== RECIPE) why = ["table-recipe", { recipe: short(t.recipe), known: RECIPE }];
    else if (!Object.hasOwn(RULES, t.ruleset))
      why = ["table-ruleset", { ruleset: short(t.ruleset.slice(0, 20)) }];
    else if (t.seats.length !== SEATS) why = ["table-seats", { seats: t.seats.length }];
    else if (t.target !== null && t.target <= 0) why = ["table-target", { target: t.target }];
    else why = tableProblem(t.ruleset, t.target, t.options);
    if (why) {
      report.add("table", "fail", ...why);
      return false;
    }
    // the options set, as verify.py names them: ", no_trump, generale"
    const options = Object.keys(t.options)
      .filter((name) => t.options[name] === true)
      .map((name) => `, ${name}`)
      .join("");
    report.add("table", "ok", "table-ok", { ruleset: t.ruleset, options, recipe: RECIPE });
    return true;
  }

  function deckInputs(t, report) {
    if (!isHex(t.serverSeed, 32)) {
      report.add("inputs", "fail", "inputs-server");
      return null;
    }
    const seeds = [];
    for (const [i, seat] of t.seats.entries()) {
      if (seat.seed !== null && !isHex(seat.seed, 16)) {
        report.add("inputs", "fail", "inputs-seat", { seat: i + 1 });
        return null;
      }
      seeds.push(seat.seed === null ? null : fromHex(seat.seed));
    }
    const d = t.drand;
    if (d && (!isHex(d.value, 32) || !(Number.isSafeInteger(d.round) && d.round >= 1))) {
      report.add("inputs", "fail", "inputs-drand");
      return null;
    }
    return deckMaker(
      fromHex(t.serverSeed),
      seeds,
      d ? d.round : 0,
      d ? fromHex(d.value) : null,
      DECK_SIZE,
    );
  }

  function checkDeck(report, i, deal, made) {
    const n = i + 1;
    const name = `deal ${n}: deck`;
    if (deal.k !== i) {
      report.add(name, "fail", "deck-k", { k: String(deal.k), want: i, n }, n);
      return;
    }
    if (deal.deck.length !== DECK_SIZE) {
      report.add(name, "fail", "deck-size", { size: deal.deck.length, want: DECK_SIZE }, n);
      return;
    }
    const at = made.findIndex((c, j) => deal.deck[j] !== c);
    if (at < 0) report.add(name, "ok", "deck-ok", { k: i }, n);
    else
      report.add(
        name,
        "fail",
        "deck-differs",
        { k: i, card: at + 1, recipe: made.slice(at, at + 4).join(" ") },
        n,
      );
  }

  const sorted = (cards) => [...cards].sort();

  /** The cards each seat holds before the auction ends (5, or 8 in coinche), as card ints. */
  function firstPackets(rec, packets) {
    const hands = [[], [], [], []];
    let pos = 0;
    for (const packet of packets) {
      for (let j = 1; j < 5; j++) {
        hands[(rec.dealer + j) % 4].push(...rec.deck.slice(pos, pos + packet));
        pos += packet;
      }
    }
    return hands;
  }

  function handsProblem(rec, deal, packets) {
    if (rec.dealer !== deal.dealer)
      return ["hands-dealer", { seat: rec.dealer + 1, told: short(String(deal.dealer + 1)) }];
    const turned = rec.turned === null ? null : CARD_TEXTS[rec.turned];
    if (turned !== deal.turned)
      return ["hands-turned", { card: String(turned), told: short(String(deal.turned)) }];
    if (deal.hands.length !== SEATS) return ["hands-count", { count: deal.hands.length }];
    const partial = rec.hands.length === 0; // the auction never ended: the first packets
    const source = partial ? firstPackets(rec, packets) : rec.hands;
    for (let s = 0; s < SEATS; s++) {
      const dealt = sorted(source[s].map((c) => CARD_TEXTS[c]));
      const told = sorted(partial ? deal.hands[s].filter((c) => dealt.includes(c)) : deal.hands[s]);
      if (!same(dealt, told))
        return [
          "hands-seat",
          { seat: s + 1, dealt: dealt.join(" "), told: short(told.join(" ")) || "—" },
        ];
    }
    return null;
  }

  /** As verify._blame_thrown_in: the first thrown-in deal just before deal i that the
   * totals carried into deal i show was played, or null. */
  function blameThrownIn(t, i, score) {
    const told = t.deals[i].score;
    const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (!isObj(told) || !isObj(score)) return null;
    for (const key of Object.keys(score)) {
      if (CUMULATIVE.has(key)) continue;
      if (!same(Object.hasOwn(told, key) ? told[key] : null, score[key])) return null;
    }
    let j = i;
    while (j > 0 && t.deals[j - 1].contract === null) j--;
    if (j === i) return null;
    const run = Array.from({ length: i - j }, (_, x) => j + x); // each fits the evidence
    const later = t.deals.slice(i + 1).find((d) => d.contract !== null);
    const toldScores = Object.hasOwn(told, "scores") ? told.scores : null;
    if (later) {
      const after = later.score;
      if (!isObj(after)) return null;
      const num = (v) => typeof v === "number";
      const pick = (key, x) => (Array.isArray(after[key]) ? after[key][x] : undefined);
      const carried = [0, 1].map((x) => [pick("scores", x), pick("points", x), pick("paid", x)]);
      if (!carried.every((v) => v.every(num))) return null;
      return same(
        carried.map(([s, p, q]) => s - p - q),
        toldScores,
      )
        ? run
        : null;
    }
    const result = isObj(t.result) ? t.result : {};
    return same(Object.hasOwn(result, "scores") ? result.scores : null, toldScores) ? run : null;
  }

  const unfinished = (t) =>
    t.result !== null &&
    typeof t.result === "object" &&
    !Array.isArray(t.result) &&
    Object.hasOwn(t.result, "winner") &&
    t.result.winner === null;

  /** Apply deal i's recorded actions to the match (verify._play_actions): why one is
   * refused ([key, params]), or null. A thrown-in deal may hold passes only. */
  function playActions(match, i, deal) {
    if (deal.contract === null) {
      const bid = deal.actions.find((a) => a[1].trim().toLowerCase() !== "pass");
      if (bid) return ["play-thrown-bid", { seat: bid[0] + 1, action: short(bid[1]) }];
    }
    for (const [a, [seat, text]] of deal.actions.entries()) {
      const at = { n: a + 1, action: short(text), seat: short(String(seat + 1)) };
      if (match.deals.length > i + 1 || match.winner !== null) return ["play-after-end", at];
      try {
        match.apply(seat, text);
      } catch (err) {
        if (!(err instanceof BeloteVerify.engine.EngineError)) throw err;
        return ["play-refused", { ...at, why: { key: err.key, params: err.params } }];
      }
    }
    return null;
  }

  /** After the last deal recorded (verify._check_end): the match is over, as recorded. */
  function checkEnd(t, match, report) {
    const result = { winner: match.winner, scores: [...match.scores] };
    if (match.winner === null) {
      if (unfinished(t) && t.deals.length) {
        report.add("result", "unchecked", "result-never-ended");
        return;
      }
      let j = t.deals.length;
      while (j > 0 && t.deals[j - 1].contract === null) j--;
      for (let m = j + 1; m <= t.deals.length; m++)
        report.add(`deal ${m}: play`, "fail", "play-thrown-last", { m }, m);
      const missing = match.deals.length;
      report.add(
        "result",
        "fail",
        "result-missing",
        { count: t.deals.length, missing, a: result.scores[0], b: result.scores[1] },
        missing,
      );
      return;
    }
    const params = {
      team: "AB"[result.winner],
      won: result.scores[result.winner],
      lost: result.scores[1 - result.winner],
    };
    if (same(result, t.result)) report.add("result", "ok", "result-ok", params);
    else report.add("result", "fail", "result-differs", { ...params, told: short(t.result) });
  }

  function replay(t, maker, report) {
    const decks = [];
    const deckFor = (k) => {
      decks[k] = decks[k] || maker.deckInts(k);
      return decks[k];
    };
    const match = new Match(t.ruleset, deckFor, t.target, t.options);
    let stopped = null;
    const parts = ["hands", "play", "score"];
    for (const [i, deal] of t.deals.entries()) {
      const n = i + 1;
      const made = deckFor(i).map((c) => CARD_TEXTS[c]);
      if (stopped !== null) {
        checkDeck(report, i, deal, made); // the decks do not depend on the play
        for (const part of parts)
          report.add(
            `deal ${n}: ${part}`,
            "unchecked",
            "not-checked-after",
            { failed: stopped },
            n,
          );
        continue;
      }
      const failsBefore = report.fails;
      checkDeck(report, i, deal, made);
      if (match.deals.length <= i) {
        report.add(`deal ${n}: hands`, "fail", "never-dealt", { n, before: i }, n);
        stopped = n;
        continue;
      }
      let refused = playActions(match, i, deal);
      const rec = match.deals[i];
      const problem = handsProblem(rec, deal, match.rules.packets);
      if (problem) report.add(`deal ${n}: hands`, "fail", ...problem, n);
      else report.add(`deal ${n}: hands`, "ok", "hands-ok", {}, n);
      const over = match.deals.length > i + 1 || match.winner !== null;
      if (!refused && !over) {
        if (i + 1 === t.deals.length && unfinished(t)) {
          report.add(`deal ${n}: play`, "unchecked", "play-stopped", {}, n);
          report.add(`deal ${n}: score`, "unchecked", "score-never-ended", {}, n);
          report.add("result", "unchecked", "result-never-ended");
          return;
        }
        refused = ["play-not-over", {}];
      }
      if (refused) {
        report.add(`deal ${n}: play`, "fail", ...refused, n);
        report.add(`deal ${n}: score`, "unchecked", "score-play-failed", {}, n);
        stopped = n;
        continue;
      }
      const contract = rec.contract;
      if (!same(contract, deal.contract)) {
        report.add(
          `deal ${n}: play`,
          "fail",
          "play-contract",
          { made: short(contract), told: short(deal.contract) },
          n,
        );
        report.add(`deal ${n}: score`, "unchecked", "score-contract-differs", {}, n);
        stopped = n;
        continue;
      }
      if (contract === null) report.add(`deal ${n}: play`, "ok", "play-ok-thrown", {}, n);
      else
        report.add(
          `deal ${n}: play`,
          "ok",
          "play-ok",
          {
            count: deal.actions.length,
            contract: contractText(contract),
            seat: contract.taker + 1,
          },
          n,
        );
      const score = rec.result;
      if (same(score, deal.score)) {
        report.add(
          `deal ${n}: score`,
          "ok",
          score === null ? "score-ok-thrown" : "score-ok",
          {},
          n,
        );
      } else {
        for (const j of blameThrownIn(t, i, score) || [])
          report.add(`deal ${j + 1}: play`, "fail", "play-thrown-scored", { n, m: j + 1 }, j + 1);
        report.add(
          `deal ${n}: score`,
          "fail",
          "score-differs",
          {
            made: short(score),
            told: short(deal.score),
            field: firstDifference(deal.score, score),
          },
          n,
        );
        stopped = n;
      }
      // a wrong deck or hand: the first deal that went wrong is this one
      if (report.fails > failsBefore) stopped = n;
    }
    if (stopped !== null) {
      report.add("result", "unchecked", "not-checked-after", { failed: stopped });
      return;
    }
    checkEnd(t, match, report);
  }

  function firstDifference(told, made) {
    const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (!isObj(told) || !isObj(made)) return "";
    for (const key of Object.keys(made)) {
      if (!Object.hasOwn(told, key) || !same(told[key], made[key])) return key;
    }
    return Object.keys(told).find((k) => !Object.hasOwn(made, k)) || "";
  }

  BeloteVerify.checks = { MAX_ROUND, PUBLIC_RELAYS, runChecks, same };
})();
