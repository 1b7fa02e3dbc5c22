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

  // SHA-256 in plain JavaScript, synchronous: a deck needs one or two HMAC blocks, and
  // 10,000 deals must not wait on 20,000 WebCrypto promises.
  const K256 = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const W = new Uint32Array(64);

  function sha256Sync(bytes) {
    const n = bytes.length;
    const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[n] = 0x80;
    const bits = n * 8;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(padded.length - 4, bits >>> 0);
    const h = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
      0x5be0cd19,
    ]);
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const a = W[i - 15];
        const b = W[i - 2];
        const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const ch = (e & f) ^ (~e & g);
        const t1 = (hh + S1 + ch + K256[i] + W[i]) | 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const maj = (a & b) ^ (a & c) ^ (b & c);
        const t2 = (S0 + maj) | 0;
        hh = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      h[0] += a;
      h[1] += b;
      h[2] += c;
      h[3] += d;
      h[4] += e;
      h[5] += f;
      h[6] += g;
      h[7] += hh;
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
    return out;
  }

  /** HMAC-SHA256 with a key of at most 64 bytes (the server seed is 32). */
  function hmacSha256(key, message) {
    const inner = new Uint8Array(64).fill(0x36);
    const outer = new Uint8Array(64).fill(0x5c);
    for (let i = 0; i < key.length; i++) {
      inner[i] ^= key[i];
      outer[i] ^= key[i];
    }
    return sha256Sync(concat([outer, sha256Sync(concat([inner, message]))]));
  }

  /**
   * A deck maker keyed with the server seed: `maker.deck(k)` gives deal k's cards as text,
   * `maker.deckInts(k)` as card ints (0..31, the engine's). Synchronous.
   */
  function deckMaker(serverSeed, seatSeeds, drandRound, drandValue, size = 32) {
    const head = encoder.encode(RECIPE);
    const tail = messageTail(seatSeeds, drandRound, drandValue);
    function block(k, b) {
      return hmacSha256(serverSeed, concat([head, bigEndian(k, 4), bigEndian(b, 4), tail]));
    }
    function deckInts(k) {
      let b = 0;
      let bytes = block(k, b);
      let at = 0;
      const next = () => {
        if (at === bytes.length) {
          bytes = block(k, ++b);
          at = 0;
        }
        return bytes[at++];
      };
      const cards = Array.from({ length: 32 }, (_, i) => i);
      for (let i = 31; i >= 1; i--) {
        const n = i + 1;
        const limit = 256 - (256 % n);
        let x = next();
        while (x >= limit) x = next();
        const j = x % n;
        [cards[i], cards[j]] = [cards[j], cards[i]];
      }
      return size === 24 ? cards.filter((c) => (c & 7) >= 2) : cards;
    }
    return { deck: (k) => deckInts(k).map((c) => CARDS[c]), deckInts };
  }

  const FRENCH = new Set(["classic", "club"]);
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
    sha256Sync,
    hmacSha256,
    deckMaker,
    FRENCH,
    sortCards,
    missingFrom,
    verifyBeacon,
    roundTime,
    trickWinner,
    playedCard,
  };
})();
