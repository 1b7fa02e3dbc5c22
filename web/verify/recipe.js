// The fair-deal recipe and the deal, byte for byte as engine/recipe.py and the README's
// "fair-deal recipe" say, in the browser: HMAC-SHA256 and SHA-256 from WebCrypto, BLS from
// the vendored @noble/curves. Nothing here touches the page or the network.
// A classic script (no modules), so that the page also works opened from disk (file://):
// it reads what the scripts before it put on window.BeloteVerify and adds its own part.

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const { bls12_381 } = window.nobleCurves;

  const RECIPE = "belot.club/deal/v1";
  const SUITS = "CDHS";
  const RANKS = "789TJQKA";
  /** The starting order: clubs, diamonds, hearts, spades, each from 7 to ace. */
  const CARDS = [...SUITS].flatMap((s) => [...RANKS].map((r) => r + s));

  const QUICKNET = Object.freeze({
    chain: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    publicKey:
      "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    dst: "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_",
    genesis: 1692803367,
    period: 3,
  });

  const encoder = new TextEncoder();

  function isHex(text, bytes) {
    return typeof text === "string" && text.length === 2 * bytes && /^[0-9a-fA-F]*$/.test(text);
  }

  function fromHex(text) {
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  function toHex(bytes) {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  function concat(parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  function bigEndian(value, bytes) {
    const out = new Uint8Array(bytes);
    let v = BigInt(value);
    for (let i = bytes - 1; i >= 0; i--) {
      out[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    return out;
  }

  /** The part of every block's message after k and b: players, seats' seeds, drand. */
  function messageTail(seatSeeds, drandRound, drandValue) {
    const parts = [Uint8Array.of(seatSeeds.length)];
    for (const seed of seatSeeds) {
      parts.push(Uint8Array.of(seed ? seed.length : 0));
      if (seed) parts.push(seed);
    }
    parts.push(bigEndian(drandRound || 0, 8));
    parts.push(drandValue || new Uint8Array(32));
    return concat(parts);
  }

  /** A deck maker keyed with the server seed: `await maker.deck(k)` gives deal k's cards. */
  async function deckMaker(serverSeed, seatSeeds, drandRound, drandValue, size = 32) {
    const key = await crypto.subtle.importKey(
      "raw",
      serverSeed,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const head = encoder.encode(RECIPE);
    const tail = messageTail(seatSeeds, drandRound, drandValue);
    async function block(k, b) {
      const msg = concat([head, bigEndian(k, 4), bigEndian(b, 4), tail]);
      return new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
    }
    async function deck(k) {
      let b = 0;
      let bytes = await block(k, b);
      let at = 0;
      const next = async () => {
        if (at === bytes.length) {
          bytes = await block(k, ++b);
          at = 0;
        }
        return bytes[at++];
      };
      const cards = Array.from({ length: 32 }, (_, i) => i);
      for (let i = 31; i >= 1; i--) {
        const n = i + 1;
        const limit = 256 - (256 % n);
        let x = await next();
        while (x >= limit) x = await next();
        const j = x % n;
        [cards[i], cards[j]] = [cards[j], cards[i]];
      }
      const kept = size === 24 ? cards.filter((c) => (c & 7) >= 2) : cards;
      return kept.map((c) => CARDS[c]);
    }
    return { deck };
  }

  const FRENCH = new Set(["classic", "club"]);
  const RULESETS = ["classic", "club", "bulgarian"];

  /**
   * The hands a deck deals, per seat in the order dealt, and the turned card.
   * Packets go round from the dealer's next seat: 3 each, then 2 each (deck[0..19]);
   * classic and club turn deck[20] up and, after the auction, give the taker the turned
   * card and 2, the others 3 (deck[21..31]); bulgarian gives 3 more each (deck[20..31]).
   * `taker` is null for a redeal (everybody passed): the hands stay at 5 cards.
   */
  function dealHands(ruleset, deck, dealer, taker) {
    const order = [1, 2, 3, 4].map((i) => (dealer + i) % 4);
    const hands = [[], [], [], []];
    let pos = 0;
    for (const packet of [3, 2]) {
      for (const seat of order) {
        hands[seat].push(...deck.slice(pos, pos + packet));
        pos += packet;
      }
    }
    const french = FRENCH.has(ruleset);
    const turned = french ? deck[20] : null;
    if (taker !== null && taker !== undefined) {
      if (french) {
        hands[taker].push(deck[20]);
        pos = 21;
      }
      for (const seat of order) {
        const n = french && seat === taker ? 2 : 3;
        hands[seat].push(...deck.slice(pos, pos + n));
        pos += n;
      }
    }
    return { hands, turned };
  }

  /** Card texts sorted as the bot lists a hand: by suit (C D H S), then 7 to ace. */
  function sortCards(cards) {
    const index = (c) => {
      const i = CARDS.indexOf(c);
      return i < 0 ? 99 : i;
    };
    return [...cards].sort((a, b) => index(a) - index(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** What is in `a` and not in `b`, as a multiset (a card listed twice counts twice). */
  function missingFrom(a, b) {
    const left = [...b];
    const out = [];
    for (const c of a) {
      const i = left.indexOf(c);
      if (i < 0) out.push(c);
      else left.splice(i, 1);
    }
    return out;
  }

  /**
   * Is `signature` quicknet's BLS signature of `round`? (scheme bls-unchained-g1-rfc9380:
   * the message is sha256(round, 8 bytes big-endian), hashed to G1 with quicknet's tag, and
   * e(G2 generator, signature) == e(public key, H(message)).) Returns {ok, reason}.
   */
  async function verifyBeacon(round, signatureHex) {
    try {
      const message = await sha256(bigEndian(round, 8));
      const bls = bls12_381.shortSignatures;
      const point = bls.hash(message, QUICKNET.dst);
      const ok = bls.verify(fromHex(signatureHex), point, fromHex(QUICKNET.publicKey));
      return { ok, reason: ok ? "" : "the pairing check fails" };
    } catch (err) {
      return { ok: false, reason: String(err && err.message ? err.message : err) };
    }
  }

  /** The unix time at which quicknet publishes `round`. */
  function roundTime(round) {
    return QUICKNET.genesis + (round - 1) * QUICKNET.period;
  }

  // --- trick play (for the replay and the order of play) ---------------------------------

  // weakest first: trump J 9 A 10 K Q 8 7 and plain A 10 K Q J 9 8 7, read backwards
  const TRUMP_ORDER = ["7", "8", "Q", "K", "T", "A", "9", "J"];
  const PLAIN_ORDER = ["7", "8", "9", "J", "Q", "K", "T", "A"];

  /** Which of the trick's plays wins: [{seat, card}] in play order, the contract's trump. */
  function trickWinner(plays, trump) {
    const led = plays[0].card[1];
    let best = null;
    let bestValue = -1;
    for (const p of plays) {
      const [rank, suit] = p.card;
      let value = -1;
      const trumpLike = trump === "AT" ? suit === led : suit === trump;
      if (trumpLike) value = 100 + TRUMP_ORDER.indexOf(rank);
      else if (suit === led) value = PLAIN_ORDER.indexOf(rank);
      if (value > bestValue) {
        bestValue = value;
        best = p;
      }
    }
    return best.seat;
  }

  /** The card a "play TD [melds|belote]" action plays, else null. */
  function playedCard(text) {
    const m = /^play ([789TJQKA][CDHS])\b/.exec(text);
    return m ? m[1] : null;
  }

  BeloteVerify.recipe = {
    RECIPE,
    SUITS,
    RANKS,
    CARDS,
    QUICKNET,
    isHex,
    fromHex,
    toHex,
    sha256,
    messageTail,
    deckMaker,
    FRENCH,
    RULESETS,
    dealHands,
    sortCards,
    missingFrom,
    verifyBeacon,
    roundTime,
    trickWinner,
    playedCard,
  };
})();
