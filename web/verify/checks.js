// The checks `belote verify` makes, made again in the browser from the transcript alone:
// the commitment, drand's signature (and, when asked, drand's own answer), every deck,
// every hand, and the order of the cards played. Each check says exactly what differs.
// A classic script (no modules), so that the page also works opened from disk (file://):
// it reads what the scripts before it put on window.BeloteVerify and adds its own part.

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const {
    FRENCH,
    QUICKNET,
    RECIPE,
    deckMaker,
    dealHands,
    fromHex,
    isHex,
    missingFrom,
    playedCard,
    sha256,
    sortCards,
    toHex,
    trickWinner,
    verifyBeacon,
  } = BeloteVerify.recipe;

  const PUBLIC_RELAYS = [
    "https://api.drand.sh",
    "https://api2.drand.sh",
    "https://api3.drand.sh",
    "https://drand.cloudflare.com",
  ];

  const short = (hex) => (hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex);
  const seatName = (t, seat) =>
    t.seats[seat] ? `seat ${seat} (${t.seats[seat].name})` : `seat ${seat}`;
  const cardList = (cards) => (cards.length ? cards.join(" ") : "nothing");

  /**
   * Run every check on a parsed transcript. `report(check)` is called as each check is
   * made or updated ({id, name, status: "ok" | "fail" | "skip" | "pending", message}).
   * Returns the list of checks, in report order.
   */
  async function runChecks(
    t,
    { online = true, relays = PUBLIC_RELAYS, timeoutMs = 5000, report = () => {} } = {},
  ) {
    const checks = [];
    const add = (name, status, message, extra = {}) => {
      const check = { id: checks.length, name, status, message, ...extra };
      checks.push(check);
      report(check);
      return check;
    };
    const update = (check, status, message) => {
      check.status = status;
      check.message = message;
      report(check);
    };

    await checkCommitment(t, add);
    await checkDrand(t, add);
    if (t.drand) {
      const pending = add("drand online", "pending", `Asking drand for round ${t.drand.round}…`);
      const asked = online
        ? askDrand(t.drand, relays, timeoutMs).then(([status, message]) =>
            update(pending, status, message),
          )
        : Promise.resolve(
            update(
              pending,
              "skip",
              "Not asked: drand's own answer was not requested (the signature check above does not need it).",
            ),
          );
      await checkDeals(t, add);
      await asked;
    } else {
      await checkDeals(t, add);
    }
    return checks;
  }

  async function checkCommitment(t, add) {
    if (t.serverSeed === null) {
      add(
        "commitment",
        "fail",
        "The server has not revealed its seed yet: the match can be checked once it ends.",
      );
      return;
    }
    if (!isHex(t.serverSeed, 32)) {
      add("commitment", "fail", `The server seed "${t.serverSeed}" is not 64 hexadecimal digits.`);
      return;
    }
    const digest = toHex(await sha256(fromHex(t.serverSeed)));
    if (digest === t.commitment) {
      add(
        "commitment",
        "ok",
        `The server seed ${short(t.serverSeed)} hashes to the commitment ${short(t.commitment)} shown before the seeds.`,
      );
    } else {
      add(
        "commitment",
        "fail",
        `The server seed hashes to ${digest}, not to the commitment ${t.commitment} shown before the seeds: the seed revealed is not the one the server committed to.`,
      );
    }
  }

  async function checkDrand(t, add) {
    const d = t.drand;
    if (d === null) {
      add(
        "drand",
        "ok",
        "Dealt without drand (its value had not arrived in time): from the server's seed and the players' seeds alone.",
      );
      return;
    }
    if (d.chain !== QUICKNET.chain) {
      add(
        "drand",
        "fail",
        `Unknown drand chain ${d.chain}; expected quicknet (${short(QUICKNET.chain)}).`,
      );
      return;
    }
    if (!isHex(d.value, 32)) {
      add("drand", "fail", `drand's value "${d.value}" is not 64 hexadecimal digits.`);
      return;
    }
    if (!isHex(d.signature, 48)) {
      add("drand", "fail", `drand's signature is not 96 hexadecimal digits.`);
      return;
    }
    const hashed = toHex(await sha256(fromHex(d.signature)));
    if (hashed !== d.value) {
      add(
        "drand",
        "fail",
        `drand's value for round ${d.round} is ${d.value}, but its signature hashes to ${hashed}: the value does not match its signature.`,
      );
      return;
    }
    const bls = await verifyBeacon(d.round, d.signature);
    if (bls.ok) {
      add(
        "drand",
        "ok",
        `drand round ${d.round}'s value ${short(d.value)} is signed by quicknet's key (BLS signature checked).`,
      );
    } else {
      add(
        "drand",
        "fail",
        `The signature given for drand round ${d.round} does not check against quicknet's public key (${bls.reason}): the value is not drand's.`,
      );
    }
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
      if (body.round !== round || !isHex(body.randomness, 32) || !isHex(body.signature, 48)) {
        throw new Error(`${relay} answered something that is not round ${round}`);
      }
      return {
        relay,
        value: body.randomness.toLowerCase(),
        signature: body.signature.toLowerCase(),
      };
    } catch (err) {
      throw new Error(
        err.name === "AbortError" ? `${relay} did not answer in time` : err.message || String(err),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async function askDrand(d, relays, timeoutMs) {
    if (d.chain !== QUICKNET.chain) return ["skip", "Not asked: the chain is not quicknet."];
    let served;
    try {
      served = await Promise.any(relays.map((r) => fetchRound(r, d.chain, d.round, timeoutMs)));
    } catch (err) {
      const why = (err.errors || [err]).map((e) => e.message).join("; ");
      return [
        "skip",
        `Could not get round ${d.round} from drand (${why}); the signature check above does not need it.`,
      ];
    }
    const host = served.relay.replace(/^https?:\/\//, "");
    if (served.value === d.value) {
      return ["ok", `drand itself (${host}) serves the same value for round ${d.round}.`];
    }
    const own = await verifyBeacon(d.round, served.signature);
    const signed = own.ok ? "signed by quicknet's key" : "whose signature does not check either";
    return [
      "fail",
      `drand (${host}) serves ${served.value} for round ${d.round} (${signed}), not the ${d.value} the match was dealt from.`,
    ];
  }

  /** The deck inputs, or the reason they cannot be read. */
  function deckInputs(t) {
    if (t.recipe !== RECIPE)
      return { why: `the recipe "${t.recipe}" is not ${RECIPE}, the one this page knows.` };
    if (t.serverSeed === null) return { why: "the server seed is not revealed." };
    if (!isHex(t.serverSeed, 32)) return { why: "the server seed is not 64 hexadecimal digits." };
    const seeds = [];
    for (const [i, seat] of t.seats.entries()) {
      if (seat.seed !== null && !isHex(seat.seed, 16))
        return { why: `${seatName(t, i)}'s seed is not 32 hexadecimal digits.` };
      seeds.push(seat.seed === null ? null : fromHex(seat.seed));
    }
    if (t.drand && !isHex(t.drand.value, 32))
      return { why: "drand's value is not 64 hexadecimal digits." };
    const size = t.deals.length && t.deals[0].deck.length === 24 ? 24 : 32;
    return {
      serverSeed: fromHex(t.serverSeed),
      seeds,
      drandRound: t.drand ? t.drand.round : 0,
      drandValue: t.drand ? fromHex(t.drand.value) : null,
      size,
    };
  }

  async function checkDeals(t, add) {
    const inputs = deckInputs(t);
    if (inputs.why) {
      for (const deal of t.deals) {
        add(`deal ${deal.k}: deck`, "fail", `Not checked: ${inputs.why}`, { deal: deal.k });
      }
      return;
    }
    const maker = await deckMaker(
      inputs.serverSeed,
      inputs.seeds,
      inputs.drandRound,
      inputs.drandValue,
      inputs.size,
    );
    for (const [i, deal] of t.deals.entries()) {
      const name = `deal ${deal.k}: `;
      if (deal.k !== i) {
        add(
          name + "deck",
          "fail",
          `Deal number ${deal.k} is out of order (expected ${i}: every deal counts, redeals included).`,
          { deal: deal.k },
        );
        add(name + "hands", "skip", "Not checked: the deal is out of order.", { deal: deal.k });
        add(name + "play", "skip", "Not checked: the deal is out of order.", { deal: deal.k });
        continue;
      }
      const made = await maker.deck(i);
      add(name + "deck", ...compareDeck(deal.deck, made), { deal: i });
      if (inputs.size !== 32) {
        add(
          name + "hands",
          "skip",
          "No ruleset deals the 24-card deck yet: the hands are not checked.",
          { deal: i },
        );
        continue;
      }
      // The play is checked against the hands the deck deals, whatever the transcript lists.
      const [status, message, dealt] = compareHands(t, deal, made, i);
      add(name + "hands", status, message, { deal: i });
      if (dealt) add(name + "play", ...checkPlay(t, deal, dealt, i % 4), { deal: i });
      else
        add(name + "play", "skip", "Not checked: the deck cannot be dealt to this table.", {
          deal: i,
        });
    }
  }

  function compareDeck(told, made) {
    const diffs = [];
    for (let j = 0; j < Math.max(told.length, made.length); j++) {
      if (told[j] !== made[j]) diffs.push(j);
    }
    if (!diffs.length)
      return [
        "ok",
        `The deck is the one the recipe makes from the seeds${made.length === 24 ? " (the 24-card deck)" : ""}.`,
      ];
    if (told.length !== made.length) {
      return ["fail", `The deck has ${told.length} cards; the recipe makes ${made.length}.`];
    }
    const shown = diffs
      .slice(0, 4)
      .map((j) => `card ${j + 1} is ${told[j]} where the recipe puts ${made[j]}`)
      .join("; ");
    const more = diffs.length > 4 ? `; and ${diffs.length - 4} more cards differ` : "";
    return ["fail", `The deck is not the recipe's: ${shown}${more}.`];
  }

  function compareHands(t, deal, deck, i) {
    if (t.seats.length !== 4)
      return ["fail", `This page deals to four seats; the match has ${t.seats.length}.`, null];
    const dealer = i % 4;
    const taker = deal.contract ? deal.contract.taker : null;
    if (taker !== null && !(taker >= 0 && taker < 4))
      return ["fail", `The taker, seat ${taker}, is not a seat of the table.`, null];
    const { hands, turned } = dealHands(t.ruleset, deck, dealer, taker);
    if (deal.dealer !== dealer) {
      return [
        "fail",
        `Deal ${i} is dealt by seat ${dealer} (the first dealer is seat 0, then the next seat every deal), not by seat ${deal.dealer}.`,
        hands,
      ];
    }
    if (turned !== deal.turned) {
      const want =
        turned === null ? "no card turned up" : `${turned} turned up (card 21 of the deck)`;
      return [
        "fail",
        `The deck gives ${want}; the transcript says ${deal.turned === null ? "none" : deal.turned}.`,
        hands,
      ];
    }
    const wrong = [];
    for (let seat = 0; seat < 4; seat++) {
      const told = deal.hands[seat] || [];
      const dealtHere = missingFrom(hands[seat], told);
      const notDealt = missingFrom(told, hands[seat]);
      const who = seatName(t, seat);
      if (notDealt.length) {
        wrong.push(
          `${who} holds ${cardList(sortCards(notDealt))} that the deck does not deal it` +
            (dealtHere.length ? `, in place of ${cardList(sortCards(dealtHere))}` : ""),
        );
      } else if (dealtHere.length) {
        wrong.push(`${who} lacks ${cardList(sortCards(dealtHere))}, which the deck deals it`);
      }
    }
    if (deal.hands.length !== 4)
      wrong.push(`the transcript lists ${deal.hands.length} hands, not 4`);
    if (wrong.length)
      return ["fail", `A hand is not what the deck deals: ${wrong.join("; ")}.`, hands];
    const how = FRENCH.has(t.ruleset)
      ? "3 then 2 each, the turned card to the taker with 2 more, 3 to the others"
      : "3 then 2 each, then 3 more each";
    const what = taker === null ? "5 cards each before everybody passed (redealt)" : how;
    return [
      "ok",
      `Every hand is what the deck deals from seat ${(dealer + 1) % 4}, packet by packet (${what}).`,
      hands,
    ];
  }

  /** The cards played, trick by trick: each from its player's hand, once, in turn. */
  function checkPlay(t, deal, dealt, dealer) {
    const plays = deal.actions
      .map(([seat, text], n) => ({ n: n + 1, seat, card: playedCard(text) }))
      .filter((p) => p.card);
    if (deal.contract === null) {
      return plays.length
        ? ["fail", `Nobody took, so the deal was redealt, yet ${plays.length} cards are played.`]
        : ["ok", "Everybody passed: the deal was redealt, as the next deal shows."];
    }
    const left = dealt.map((h) => [...h]);
    let leader = (dealer + 1) % 4;
    for (let trick = 0; trick * 4 < plays.length; trick++) {
      const four = plays.slice(trick * 4, trick * 4 + 4);
      for (const [j, p] of four.entries()) {
        const turn = (leader + j) % 4;
        if (p.seat !== turn) {
          return [
            "fail",
            `Trick ${trick + 1}, card ${j + 1} (action ${p.n}): ${seatName(t, p.seat)} plays ${p.card}, but it is ${seatName(t, turn)}'s turn.`,
          ];
        }
        const at = left[p.seat].indexOf(p.card);
        if (at < 0) {
          return [
            "fail",
            `Trick ${trick + 1}, card ${j + 1} (action ${p.n}): ${seatName(t, p.seat)} plays ${p.card}, which the deck did not deal it or it already played.`,
          ];
        }
        left[p.seat].splice(at, 1);
      }
      if (four.length === 4) leader = trickWinner(four, deal.contract.trump);
    }
    if (plays.length !== 32) return ["fail", `Only ${plays.length} of the 32 cards are played.`];
    return [
      "ok",
      `All 32 cards are played from the hands dealt, each in turn (8 tricks); belote verify also checks every card against the rules and the score.`,
    ];
  }

  BeloteVerify.checks = { PUBLIC_RELAYS, runChecks };
})();
