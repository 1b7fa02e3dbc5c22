// The page: take a transcript (dropped, chosen, pasted, or named in the address), run the
// checks on this device, show them one by one, then the replay.
//
// The address may carry: #url=URL or ?transcript=URL (a transcript to fetch), ?relay=URL
// (a drand relay, repeatable; default: drand's public relays), ?drand=off (do not ask).
// A classic script (no modules), so that the page also works opened from disk (file://):
// it reads what the scripts before it put on window.BeloteVerify and adds its own part.

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const { PUBLIC_RELAYS, runChecks } = BeloteVerify.checks;
  const { QUICKNET, roundTime } = BeloteVerify.recipe;
  const { Replay } = BeloteVerify.replay;
  const { TranscriptError, parseTranscript } = BeloteVerify.transcript;
  const { say } = BeloteVerify.i18n;

  /** Larger files are refused with a message rather than read. */
  const MAX_MB = 200;
  /** Passing deal checks beyond this many are folded into one line (10,000 deals). */
  const SHOWN = 400;

  const $ = (sel) => document.querySelector(sel);
  const params = new URLSearchParams(location.search);
  const relays = params
    .getAll("relay")
    .flatMap((r) => r.split(","))
    .filter(Boolean);
  const replay = new Replay($("#replay"));
  let running = 0;
  let last = null; // {t, outcome} of the last check, to redraw in another language

  if (params.get("drand") === "off") $("#online").checked = false;

  function setState(state) {
    document.documentElement.dataset.state = state;
  }

  /**
   * The machine-readable answer (docs/fairdeal.md): on <html> and on #summary,
   * data-verdict = fair | unfair | not-verified | error | pending, data-deal = the first
   * deal that went wrong (from 1, as people count), data-deals = every such deal.
   */
  function setVerdict(verdict, deals = []) {
    for (const node of [document.documentElement, $("#summary")]) {
      node.dataset.verdict = verdict;
      node.dataset.deal = deals.length ? String(deals[0]) : "";
      node.dataset.deals = deals.join(" ");
    }
  }

  function checkName(c) {
    const m = /^deal (\d+): (deck|hands|play|score)$/.exec(c.name);
    return m ? say(`name-${m[2]}`, { n: m[1] }) : say(`name-${c.name}`);
  }

  function row(c) {
    const node = document.createElement("li");
    node.className = "check";
    node.dataset.id = String(c.id);
    node.dataset.name = c.name;
    node.dataset.status = c.status;
    if (c.deal !== null) node.dataset.deal = String(c.deal);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = say(`mark-${c.status}`);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = checkName(c);
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = say(c.key, c.params);
    node.append(mark, name, message);
    return node;
  }

  function showChecks(checks) {
    const list = document.createDocumentFragment();
    const dealChecks = checks.filter((c) => c.deal !== null && c.status === "ok");
    const fold = dealChecks.length > SHOWN ? new Set(dealChecks.slice(SHOWN / 2)) : new Set();
    let folded = null;
    for (const c of checks) {
      if (!fold.has(c)) {
        list.append(row(c));
        continue;
      }
      if (!folded) {
        folded = document.createElement("li");
        folded.className = "check folded";
        folded.dataset.status = "ok";
        folded.dataset.count = "0";
        folded.dataset.from = String(c.deal);
        list.append(folded);
      }
      folded.dataset.count = String(Number(folded.dataset.count) + 1);
      folded.dataset.to = String(c.deal);
    }
    if (folded) {
      folded.textContent = say("folded", {
        count: folded.dataset.count,
        from: folded.dataset.from,
        to: folded.dataset.to,
      });
    }
    $("#checks").replaceChildren(list);
  }

  function showInputs(t) {
    const list = $("#inputs-list");
    list.replaceChildren();
    const add = (term, value, href) => {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      if (href) {
        const a = document.createElement("a");
        a.href = href;
        a.rel = "noreferrer";
        a.textContent = value;
        dd.append(a);
      } else {
        dd.textContent = value;
      }
      list.append(dt, dd);
    };
    add(
      say("in-ruleset"),
      t.target ? say("in-target", { ruleset: t.ruleset, target: t.target }) : t.ruleset,
    );
    // the table's options (Coinche's no_trump, generale, ...), as the transcript names them
    const options = Object.keys(t.options).filter((name) => t.options[name] === true);
    if (options.length) add(say("in-options"), options.join(", "));
    add(say("in-commitment"), t.commitment);
    add(say("in-seed"), t.serverSeed ?? say("in-unrevealed"));
    t.seats.forEach((s, i) =>
      add(
        say(s.bot ? "in-seat-bot" : "in-seat", { seat: i + 1, name: s.name }),
        s.seed ?? say("in-no-seed"),
      ),
    );
    if (t.drand) {
      const round = t.drand.round;
      const seconds = Number.isSafeInteger(round) ? roundTime(round) : NaN;
      const date = new Date(seconds * 1000);
      const label = Number.isFinite(date.getTime())
        ? say("in-drand-when", { round, when: date.toISOString().replace(".000Z", " UTC") })
        : say("in-drand", { round });
      const chain = /^[0-9a-f]{64}$/.test(t.drand.chain) ? t.drand.chain : QUICKNET.chain;
      const href = Number.isSafeInteger(round)
        ? `https://api.drand.sh/${chain}/public/${round}`
        : null;
      add(label, t.drand.value, href);
      add(say("in-signature"), t.drand.signature);
    } else {
      add("drand", say("in-no-drand"));
    }
  }

  function summaryText(t, outcome) {
    const { checks, verdict, deals } = outcome;
    if (verdict === "fair") {
      const r = t.result;
      return r && (r.winner === 0 || r.winner === 1)
        ? say("verdict-fair", {
            team: "AB"[r.winner],
            won: r.scores[r.winner],
            lost: r.scores[1 - r.winner],
          })
        : say("verdict-fair-plain");
    }
    if (verdict === "not-verified") {
      if (t.serverSeed === null) return say("verdict-unrevealed");
      const names = checks.filter((c) => c.status === "unchecked").map(checkName);
      return say("verdict-not-verified", { names: names.join(", ") });
    }
    const failed = checks.filter((c) => c.status === "fail");
    const shown = failed.slice(0, 6).map(checkName);
    const names = shown.join(", ") + (failed.length > shown.length ? ", …" : "");
    let text =
      failed.length === 1
        ? say("verdict-unfair-one", { names })
        : say("verdict-unfair", { count: failed.length, names });
    if (deals.length) text += ` ${say("verdict-deal", { deal: deals[0] })}`;
    const decks = checks.filter((c) => c.name.endsWith(": deck"));
    if (decks.length > 1 && decks.every((c) => c.status === "fail"))
      text += ` ${say("verdict-every-deck")}`;
    return text;
  }

  function draw() {
    if (!last) return;
    const { t, outcome, error } = last;
    const summary = $("#summary");
    if (error) {
      $("#title").textContent = say(error.title);
      summary.dataset.status = "error";
      summary.textContent = say(error.key, error.params);
      return;
    }
    $("#title").textContent = say("title-match", { match: t.match });
    showInputs(t);
    if (!outcome) {
      summary.dataset.status = "pending";
      summary.textContent = say("checking");
      return;
    }
    showChecks(outcome.checks);
    summary.dataset.status =
      outcome.verdict === "fair" ? "ok" : outcome.verdict === "unfair" ? "fail" : "unchecked";
    summary.textContent = summaryText(t, outcome);
  }

  function showError(title, key, params) {
    last = { error: { title, key, params } };
    $("#outcome").hidden = false;
    $("#checks").replaceChildren();
    $("#inputs").hidden = true;
    $("#replay").hidden = true;
    setVerdict("error");
    draw();
    setState("done");
  }

  /** Check one transcript's text: the whole page shows the answer. Never throws, and
   * never leaves the page on "Checking…". */
  async function check(text) {
    const mine = ++running;
    try {
      await checkOne(text, mine);
    } catch (err) {
      if (mine !== running) return;
      showError("title-error", "broke", { why: String((err && err.message) || err).slice(0, 300) });
    }
  }

  async function checkOne(text, mine) {
    setState("checking");
    setVerdict("pending");
    replay.pause();
    $("#outcome").hidden = false;
    $("#checks").replaceChildren();
    $("#inputs").hidden = true;
    $("#replay").hidden = true;
    let t;
    try {
      t = parseTranscript(text);
    } catch (err) {
      if (!(err instanceof TranscriptError) && !(err instanceof RangeError)) throw err;
      showError("title-error", "not-transcript", { why: err.message });
      return;
    }
    last = { t, outcome: null };
    draw();
    $("#inputs").hidden = false;
    // let the page show "Checking…" before the work starts
    await new Promise((resolve) => setTimeout(resolve, 0));
    const outcome = await runChecks(t, {
      online: $("#online").checked,
      relays: relays.length ? relays : PUBLIC_RELAYS,
    });
    if (mine !== running) return;
    last = { t, outcome };
    draw();
    setVerdict(outcome.verdict, outcome.deals);
    try {
      replay.load(t);
    } catch {
      $("#replay").hidden = true; // a transcript too broken to replay: the checks say why
    }
    setState("done");
  }

  function tooBig(size) {
    if (size <= MAX_MB * 1024 * 1024) return false;
    showError("title-error", "too-big", { size: Math.round(size / 1048576), max: MAX_MB });
    return true;
  }

  async function fromUrl(url) {
    setState("checking");
    let text;
    try {
      const answer = await fetch(url, { credentials: "omit", cache: "no-store" });
      if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
      const size = Number(answer.headers.get("Content-Length") || 0);
      if (tooBig(size)) return;
      text = await answer.text();
    } catch (err) {
      showError("title-fetch", "fetch-failed", { url, why: String(err && err.message) });
      return;
    }
    if (tooBig(text.length)) return;
    if (text.length < 1_000_000) $("#paste").value = text;
    await check(text);
  }

  async function fromFile(file) {
    if (tooBig(file.size)) return;
    let text;
    try {
      text = await file.text();
    } catch (err) {
      showError("title-error", "read-failed", { why: String(err && err.message) });
      return;
    }
    if (text.length < 1_000_000) $("#paste").value = text;
    await check(text);
  }

  const langSelect = $("#lang");
  langSelect.value = BeloteVerify.i18n.language;
  langSelect.addEventListener("change", () => {
    BeloteVerify.i18n.use(langSelect.value, true);
    draw();
    replay.redraw();
  });
  BeloteVerify.i18n.apply();

  $("#file").addEventListener("change", (e) => e.target.files[0] && fromFile(e.target.files[0]));
  $("#check").addEventListener("click", () => check($("#paste").value));
  // Pasting a whole transcript checks it at once (the pasted text is in the box by then).
  $("#paste").addEventListener("paste", () => setTimeout(() => check($("#paste").value), 0));
  for (const kind of ["dragenter", "dragover"]) {
    document.addEventListener(kind, (e) => {
      e.preventDefault();
      $("#drop").classList.add("over");
    });
  }
  document.addEventListener("dragleave", () => $("#drop").classList.remove("over"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    $("#drop").classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) fromFile(file);
    else if (e.dataTransfer.getData("text")) {
      $("#paste").value = e.dataTransfer.getData("text");
      check($("#paste").value);
    }
  });

  function fromAddress() {
    const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
    const given = hash.get("url") || params.get("transcript") || params.get("url");
    if (given) fromUrl(given);
    else setState("idle");
  }

  window.addEventListener("hashchange", fromAddress);
  fromAddress();

  BeloteVerify.verify = {
    check,
    get last() {
      return last;
    },
  };
})();
