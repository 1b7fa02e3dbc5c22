// Reading a match transcript (the JSON of `belote export`, the file /verify attaches):
// the same shape bot/transcript.py reads, with a friendly message for anything else.
// A classic script (no modules), so that the page also works opened from disk (file://):
// it reads what the scripts before it put on window.BeloteVerify and adds its own part.

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const { RULESETS } = BeloteVerify.recipe;

  class TranscriptError extends Error {}

  function fail(message) {
    throw new TranscriptError(message);
  }

  function need(obj, key, where = "The transcript") {
    if (!(key in obj)) fail(`${where} has no "${key}" field.`);
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

  /** Parse and check the shape of a transcript; TranscriptError says what is wrong. */
  function parseTranscript(source) {
    let data;
    try {
      data = JSON.parse(source);
    } catch (err) {
      fail(`This is not JSON (${err.message}).`);
    }
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      fail("A transcript is a JSON object.");
    }
    const t = {};
    t.match = String(need(data, "match"));
    t.ruleset = text(need(data, "ruleset"), "ruleset");
    if (!RULESETS.includes(t.ruleset)) {
      fail(`Unknown ruleset "${t.ruleset}": this page knows ${RULESETS.join(", ")}.`);
    }
    t.target =
      data.target === undefined || data.target === null ? null : whole(data.target, "target");
    t.recipe = data.recipe === undefined ? "belot.club/deal/v1" : text(data.recipe, "recipe");
    t.commitment = hexField(need(data, "commitment"), "commitment");
    t.serverSeed =
      data.server_seed === undefined || data.server_seed === null
        ? null
        : hexField(data.server_seed, "server seed");
    const seats = list(need(data, "seats"), "seats");
    if (seats.length < 2 || seats.length > 4)
      fail(`A table has 2 to 4 seats, not ${seats.length}.`);
    t.seats = seats.map((s, i) => {
      if (s === null || typeof s !== "object") fail(`Seat ${i} must be a JSON object.`);
      return {
        name: text(need(s, "name", `Seat ${i}`), "seat name"),
        seed: s.seed === null || s.seed === undefined ? null : hexField(s.seed, `seat ${i}'s seed`),
        bot: Boolean(s.bot),
      };
    });
    const d = data.drand;
    if (d === undefined || d === null) {
      t.drand = null;
    } else {
      if (typeof d !== "object") fail("The drand field must be an object or null.");
      const round = whole(need(d, "round", "The drand record"), "drand round");
      if (round < 1) fail("The drand round must be 1 or more.");
      t.drand = {
        chain: text(need(d, "chain", "The drand record"), "drand chain").toLowerCase(),
        round,
        value: hexField(need(d, "value", "The drand record"), "drand value"),
        signature: hexField(need(d, "signature", "The drand record"), "drand signature"),
      };
    }
    t.deals = list(data.deals === undefined ? [] : data.deals, "deals").map(readDeal);
    t.result = data.result === undefined ? null : data.result;
    return t;
  }

  function readDeal(d, i) {
    if (d === null || typeof d !== "object" || Array.isArray(d)) {
      fail(`Deal ${i} must be a JSON object.`);
    }
    const where = `Deal ${i}`;
    const cards = (v, what) => list(v, what).map((c) => text(c, "card"));
    const actions = list(d.actions === undefined ? [] : d.actions, "actions").map((a) => {
      if (!Array.isArray(a) || a.length !== 2) fail("Each action must be a pair [seat, text].");
      return [whole(a[0], "action's seat"), text(a[1], "action's text")];
    });
    const contract = d.contract === undefined ? null : d.contract;
    if (contract !== null && (typeof contract !== "object" || Array.isArray(contract))) {
      fail("A deal's contract must be an object or null.");
    }
    if (contract !== null) {
      whole(need(contract, "taker", `${where}'s contract`), "contract's taker");
      text(need(contract, "trump", `${where}'s contract`), "contract's trump");
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
