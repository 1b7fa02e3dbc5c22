// Reading a match transcript (the JSON of `belote export`, the file /verify attaches):
// the same shape bot/transcript.py reads, with a friendly message for anything else.
// A classic script (no modules), so that the page also works opened from disk (file://):
// it reads what the scripts before it put on window.BeloteVerify and adds its own part.

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  class TranscriptError extends Error {}

  function fail(message) {
    throw new TranscriptError(message);
  }

  function need(obj, key, where = "The transcript") {
    if (!Object.hasOwn(obj, key)) fail(`${where} has no "${key}" field.`);
    return obj[key];
  }

  function text(v, what) {
    if (typeof v !== "string") fail(`The ${what} must be text.`);
    return v;
  }

  function whole(v, what) {
    if (typeof v !== "number" || !Number.isInteger(v)) fail(`The ${what} must be a whole number.`);
    return v;
  }

  function list(v, what) {
    if (!Array.isArray(v)) fail(`The ${what} must be a list.`);
    return v;
  }

  // Hex fields are only required to be text here: a seed or a value that is not hex is a
  // failed check (commitment, inputs, drand), said there, not an unreadable file.
  function hexField(v, what) {
    return text(v, what).trim().toLowerCase();
  }

  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

  /**
   * Parse and check the shape of a transcript, exactly as bot/proof/transcript.py reads it
   * (same fields, same defaults, same refusals); TranscriptError says what is wrong. What
   * the fields mean (a known ruleset, four seats, hex seeds, a drand round) is checked by
   * checks.js, as verify.py checks it, not here.
   */
  function parseTranscript(source) {
    let data;
    try {
      data = JSON.parse(source);
    } catch (err) {
      fail(`This is not JSON (${String(err && err.message).slice(0, 200)}).`);
    }
    if (!isObject(data)) fail("A transcript is a JSON object.");
    const t = {};
    const seats = list(need(data, "seats"), "seats");
    t.seats = seats.map((s, i) => {
      if (!isObject(s)) fail("The transcript's fields do not have the right shape.");
      return {
        name: text(need(s, "name", `Seat ${i + 1}`), "seat name"),
        seed: s.seed === null || s.seed === undefined ? null : hexField(s.seed, "seat seed"),
        bot: Boolean(s.bot),
      };
    });
    const d = data.drand;
    if (d === undefined || d === null) {
      t.drand = null;
    } else {
      if (!isObject(d)) fail("The transcript's fields do not have the right shape.");
      t.drand = {
        chain: text(need(d, "chain", "The drand record"), "drand chain")
          .trim()
          .toLowerCase(),
        round: whole(need(d, "round", "The drand record"), "drand round"),
        value: hexField(need(d, "value", "The drand record"), "drand value"),
        signature: hexField(need(d, "signature", "The drand record"), "drand signature"),
      };
    }
    // "deals": null is no deals, as no field is (transcript.py reads it so)
    const deals = data.deals === undefined || data.deals === null ? [] : data.deals;
    t.deals = list(deals, "deals").map(readDeal);
    t.target =
      data.target === undefined || data.target === null ? null : whole(data.target, "target");
    t.options = readOptions(data.options);
    const match = need(data, "match");
    t.match = typeof match === "string" ? match : JSON.stringify(match);
    t.ruleset = text(need(data, "ruleset"), "ruleset");
    t.recipe = data.recipe === undefined ? "belot.club/deal/v1" : text(data.recipe, "recipe");
    t.commitment = hexField(need(data, "commitment"), "commitment");
    t.serverSeed =
      data.server_seed === undefined || data.server_seed === null
        ? null
        : hexField(data.server_seed, "server seed");
    t.result = data.result === undefined ? null : data.result;
    return t;
  }

  /** The table's options, {name: true/false}: what transcript.py accepts (a missing or
   * empty field, or any value Python reads as false, is none set). */
  function readOptions(v) {
    const empty =
      v === undefined ||
      v === null ||
      v === false ||
      v === 0 ||
      v === "" ||
      (Array.isArray(v) && !v.length) ||
      (isObject(v) && !Object.keys(v).length);
    if (empty) return {};
    if (!isObject(v) || !Object.values(v).every((x) => typeof x === "boolean"))
      fail("The options must map names to true or false.");
    return { ...v };
  }

  function readDeal(d, i) {
    if (!isObject(d)) fail("Each deal must be a JSON object.");
    const where = `Deal ${i + 1}`;
    const cards = (v, what) => list(v, what).map((c) => text(c, "card"));
    const actions = list(d.actions === undefined ? [] : d.actions, "actions").map((a) => {
      if (!Array.isArray(a) || a.length !== 2) fail("Each action must be a pair [seat, text].");
      return [whole(a[0], "action's seat"), text(a[1], "action's text")];
    });
    const contract = d.contract === undefined ? null : d.contract;
    if (contract !== null && !isObject(contract)) {
      fail("A deal's contract must be an object or null.");
    }
    return {
      k: whole(need(d, "k", where), "deal number k"),
      dealer: whole(need(d, "dealer", where), "dealer"),
      deck: cards(need(d, "deck", where), "deck"),
      turned: d.turned === undefined || d.turned === null ? null : text(d.turned, "turned card"),
      hands: list(need(d, "hands", where), "hands").map((h) => cards(h, "hand")),
      contract,
      actions,
      score: d.score === undefined ? null : d.score,
    };
  }

  BeloteVerify.transcript = { TranscriptError, parseTranscript };
})();
