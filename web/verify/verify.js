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

  const $ = (sel) => document.querySelector(sel);
  const params = new URLSearchParams(location.search);
  const relays = params
    .getAll("relay")
    .flatMap((r) => r.split(","))
    .filter(Boolean);
  const replay = new Replay($("#replay"));
  let running = 0;

  if (params.get("drand") === "off") $("#online").checked = false;

  function setState(state) {
    document.documentElement.dataset.state = state;
  }

  function item(check) {
    const node = document.createElement("li");
    node.className = "check";
    node.dataset.id = String(check.id);
    const mark = document.createElement("span");
    mark.className = "mark";
    const name = document.createElement("span");
    name.className = "name";
    const message = document.createElement("span");
    message.className = "message";
    node.append(mark, name, message);
    return node;
  }

  const MARKS = { ok: "✓ ok", fail: "✗ FAILED", skip: "– not checked", pending: "… checking" };

  function show(check) {
    let node = $(`#checks li[data-id="${check.id}"]`);
    if (!node) {
      node = item(check);
      $("#checks").append(node);
    }
    node.dataset.status = check.status;
    node.dataset.name = check.name;
    node.querySelector(".mark").textContent = MARKS[check.status];
    node.querySelector(".name").textContent = check.name;
    node.querySelector(".message").textContent = check.message;
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
    add("Ruleset", `${t.ruleset}${t.target ? `, to ${t.target}` : ""}`);
    add("Commitment (shown before the seeds)", t.commitment);
    add("Server seed (revealed at the end)", t.serverSeed ?? "not revealed yet");
    t.seats.forEach((s, i) =>
      add(`Seat ${i}: ${s.name}${s.bot ? " (bot)" : ""}`, s.seed ?? "no seed"),
    );
    if (t.drand) {
      const when = new Date(roundTime(t.drand.round) * 1000).toISOString().replace(".000Z", " UTC");
      add(
        `drand quicknet round ${t.drand.round} (published ${when})`,
        t.drand.value,
        `https://api.drand.sh/${QUICKNET.chain}/public/${t.drand.round}`,
      );
      add("drand signature", t.drand.signature);
    } else {
      add("drand", "none: dealt from the seeds alone");
    }
  }

  function resultText(t) {
    const r = t.result;
    if (!r || !Array.isArray(r.scores) || (r.winner !== 0 && r.winner !== 1)) return "";
    const names = t.seats
      .filter((_, i) => i % 2 === r.winner)
      .map((s) => s.name)
      .join(" & ");
    const [won, lost] = r.winner === 0 ? r.scores : [r.scores[1], r.scores[0]];
    return ` Team ${r.winner} (${names}) won ${won} to ${lost}.`;
  }

  /** Check one transcript's text: the whole page shows the answer. */
  async function check(text) {
    const mine = ++running;
    setState("checking");
    replay.pause();
    $("#outcome").hidden = false;
    $("#checks").replaceChildren();
    $("#inputs").hidden = true;
    $("#replay").hidden = true;
    const summary = $("#summary");
    let t;
    try {
      t = parseTranscript(text);
    } catch (err) {
      if (!(err instanceof TranscriptError)) throw err;
      $("#title").textContent = "Not a match transcript";
      summary.dataset.status = "error";
      summary.textContent = `This is not a match transcript: ${err.message}`;
      setState("done");
      return;
    }
    $("#title").textContent = `Match ${t.match}`;
    summary.dataset.status = "pending";
    summary.textContent = "Checking…";
    showInputs(t);
    $("#inputs").hidden = false;
    const checks = await runChecks(t, {
      online: $("#online").checked,
      relays: relays.length ? relays : PUBLIC_RELAYS,
      report: (c) => mine === running && show(c),
    });
    if (mine !== running) return;
    const failed = checks.filter((c) => c.status === "fail");
    const skipped = checks.filter((c) => c.status === "skip");
    const decks = checks.filter((c) => c.name.endsWith(": deck"));
    if (t.serverSeed === null) {
      summary.dataset.status = "fail";
      summary.textContent =
        "The match is not over: the server has not revealed its seed, so no deck can be checked yet. Check it again once the match has ended.";
    } else if (failed.length) {
      summary.dataset.status = "fail";
      let why = "";
      if (decks.length > 1 && decks.every((c) => c.status === "fail")) {
        why =
          " Every deck differs from the recipe's: an input is not the one the match was dealt from (the server seed, a seat's seed, or drand's value).";
      }
      summary.textContent = `${failed.length} check${failed.length === 1 ? "" : "s"} failed: ${failed.map((c) => c.name).join(", ")}. This match's deals cannot be trusted.${why}`;
    } else {
      summary.dataset.status = "ok";
      const note = skipped.length ? ` (${skipped.map((c) => c.name).join(", ")}: not checked)` : "";
      summary.textContent = `Every check passed: the deals were fair${note}.${resultText(t)}`;
    }
    replay.load(t);
    setState("done");
  }

  async function fromUrl(url) {
    setState("checking");
    try {
      const answer = await fetch(url, { credentials: "omit", cache: "no-store" });
      if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
      const text = await answer.text();
      $("#paste").value = text;
      await check(text);
    } catch (err) {
      $("#outcome").hidden = false;
      $("#title").textContent = "No transcript";
      $("#summary").dataset.status = "error";
      $("#summary").textContent = `Could not fetch the transcript from ${url}: ${err.message}`;
      setState("done");
    }
  }

  async function fromFile(file) {
    const text = await file.text();
    $("#paste").value = text;
    await check(text);
  }

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

  BeloteVerify.verify = { check };
})();
