// Hanabi table companion: one page, plain JavaScript, no network beyond this server.
// The server does all the thinking; this file renders its JSON and turns taps into events.
"use strict";

const WORDS = { w: "white", r: "red", b: "blue", y: "yellow", g: "green", m: "multicolour" };
let game = null; // the latest view from the server
let flow = null; // the event being entered: {kind, seat, target, clue, slots, slot, announce, from}
let busy = false;

const $ = (selector, root = document) => root.querySelector(selector);
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const pct = (p) => `${Math.round(p * 100)}%`;

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) {
    const error = new Error(data.error || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function toast(text, ok = false) {
  const box = $("#toast");
  box.textContent = text;
  box.className = ok ? "ok" : "";
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, ok ? 2500 : 6000);
}

function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "1" : "0";
}

// ----- routing -------------------------------------------------------------
function route() {
  const match = location.hash.match(/^#\/game\/([a-z0-9-]+)$/);
  closeSheet();
  flow = null;
  if (match) openGame(match[1]);
  else showHome();
}

window.addEventListener("hashchange", route);
document.addEventListener("visibilitychange", () => { if (!document.hidden && game) refresh(); });

async function refresh() {
  if (!game) return;
  try { setGame(await api("GET", `/api/games/${game.id}`)); } catch (error) { toast(error.message); }
}

async function openGame(id) {
  try {
    setGame(await api("GET", `/api/games/${id}`));
    window.scrollTo(0, 0);
  } catch (error) {
    game = null;
    $("#main").innerHTML = `<p>${esc(error.message)}</p><p><a href="#/">All games</a></p>`;
    $("#bar").hidden = true;
  }
}

// ----- home: saved games and a new game ---------------------------------------
async function showHome() {
  game = null;
  document.body.dataset.version = "";
  $("#tokens").textContent = "Hanabi companion";
  $("#undo").hidden = true;
  $("#bar").hidden = true;
  let games = [];
  try { games = await api("GET", "/api/games"); } catch (error) { toast(error.message); }
  const items = games.map((item) => `<li><a href="#/game/${esc(item.id)}">${esc(item.id)}</a>
    <span class="muted">${item.error ? esc(item.error) : `${item.over ? "over, " : ""}score ${item.score}, turn ${item.turn}`}</span></li>`);
  $("#main").innerHTML = `
    <h2>New game</h2>
    <form id="new-game">
      <label>Players</label>
      <div class="row" id="players">${[2, 3, 4, 5].map((n) => `<button type="button" data-players="${n}" class="${n === 3 ? "chosen" : ""}">${n}</button>`).join("")}</div>
      <label>Names, first player first</label><div id="names"></div>
      <label>I am</label><div class="row" id="me"></div>
      <label>Variant</label>
      <div class="row" id="variant"><button type="button" data-variant="base" class="chosen">Base</button><button type="button" data-variant="avalanche">Avalanche</button></div>
      <label>Rules</label>
      <div class="row" id="ending"><button type="button" data-ending="standard" class="chosen">Standard</button><button type="button" data-ending="crowning">Crowning Piece</button></div>
      <label class="check"><input type="checkbox" id="empty-hints"> Empty hints allowed</label>
      <label class="check"><input type="checkbox" id="choreography"> Timed Choreography</label>
      <label class="check"><input type="checkbox" id="per-seat"> Deal each hand in turn (as hanab.live)</label>
      <label class="check"><input type="checkbox" id="stuck-pass"> Crowning Piece: a stuck player passes</label>
      <div class="row"><button type="submit" class="primary" id="start">Start</button></div>
    </form>
    <h2>Saved games</h2>
    ${items.length ? `<ul class="games">${items.join("")}</ul>` : `<p class="muted">None yet.</p>`}`;
  const names = ["Alice", "Bob", "Cathy", "Donald", "Emily"];
  const form = { players: 3, me: "", variant: "base", ending: "standard" };
  const drawNames = () => {
    const current = [...document.querySelectorAll("#names input")].map((input) => input.value);
    $("#names").innerHTML = Array.from({ length: form.players }, (_, i) =>
      `<input type="text" name="seat${i}" aria-label="Player ${i + 1}" value="${esc(current[i] || names[i])}">`).join("");
    drawMe();
  };
  const drawMe = () => {
    const seats = [...document.querySelectorAll("#names input")].map((input) => input.value.trim());
    if (!seats.includes(form.me)) form.me = "";
    $("#me").innerHTML = seats.map((name) => `<button type="button" data-me="${esc(name)}" class="${name === form.me ? "chosen" : ""}">${esc(name)}</button>`).join("")
      + `<button type="button" data-me="" class="${form.me === "" ? "chosen" : ""}">Observer</button>`;
  };
  drawNames();
  $("#new-game").addEventListener("input", drawMe);
  $("#new-game").addEventListener("click", (event) => {
    const button = event.target.closest("button[type=button]");
    if (!button) return;
    for (const key of ["players", "me", "variant", "ending"]) {
      if (button.dataset[key] !== undefined) {
        form[key] = key === "players" ? Number(button.dataset[key]) : button.dataset[key];
        button.parentElement.querySelectorAll("button").forEach((other) => other.classList.toggle("chosen", other === button));
        if (key === "players") drawNames();
      }
    }
  });
  $("#new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [...document.querySelectorAll("#names input")].map((input) => input.value.trim());
    const body = {
      players: form.players, seats, me: form.me || null, variant: form.variant, ending: form.ending,
      empty_hints: $("#empty-hints").checked, choreography: $("#choreography").checked,
      deal: $("#per-seat").checked ? "per-seat" : "round-robin", stuck: $("#stuck-pass").checked ? "pass" : "lose",
    };
    try {
      const view = await api("POST", "/api/games", body);
      location.hash = `#/game/${view.id}`;
    } catch (error) { toast(error.message); }
  });
}

// ----- the game screen ---------------------------------------------------------
function setGame(view) {
  game = view;
  document.body.dataset.version = String(view.version);
  render();
}

const name = (seat) => game.seats[seat];

function render() {
  const v = game;
  const s = v.state;
  $("#tokens").innerHTML = `<span>clues <b>${s.clues}</b></span><span>strikes <b>${s.strikes}</b></span>
    <span>score <b>${s.score}</b>/${s.max_score}</span><span>deck <b>${s.deck}</b></span>`;
  $("#undo").hidden = v.log.every((entry) => entry.auto);
  const fireworks = v.suits.map((suit) => `<span class="chip c-${suit}" title="${WORDS[suit]}">${suit}${s.fireworks[suit]}</span>`).join("");
  const hands = v.hands.map(handHtml).join("");
  const advice = v.advice_due ? `<section id="advice"><h2>Advice for ${esc(name(v.actor))}</h2><p class="muted">Weighing every move…</p></section>` : "";
  const discards = v.suits.map((suit) => `<div><span class="chip c-${suit}">${suit}</span> ${s.discards[suit].map(esc).join(" ") || "<span class=muted>none</span>"}</div>`).join("");
  const log = v.log.slice().reverse().map((entry) => `<li class="${entry.auto ? "auto" : ""}"><span>${entry.number}. ${esc(entry.text)}</span>
    ${entry.auto ? "" : `<button type="button" data-fix="${entry.number}" aria-label="Fix event ${entry.number}">fix</button>`}</li>`).join("");
  $("#main").innerHTML = `
    <div class="fireworks" id="fireworks">${fireworks}</div>
    <div id="hands">${hands}</div>
    ${advice}
    <h2>Discards</h2><div class="discards">${discards}</div>
    <h2>Events</h2><ul class="log" id="log">${log || "<li class=muted>None yet.</li>"}</ul>`;
  renderBar();
  if (v.advice_due) loadAdvice(v.id, v.version);
}

async function loadAdvice(id, version) {
  let data;
  document.body.dataset.advice = "loading";
  try { data = await api("GET", `/api/games/${id}/advice`); } catch (error) { return; } finally { document.body.dataset.advice = ""; }
  const box = $("#advice");
  if (!box || !game || game.id !== id || game.version !== version || data.version !== version) return;
  box.innerHTML = `<h2>Advice for ${esc(name(game.actor))}</h2>` + (data.advice.length
    ? `<ol class="advice">${data.advice.map((option) => `<li><b>${esc(option.action)}</b>: ${esc(option.reason)}</li>`).join("")}</ol>`
    : `<p class="muted">${esc(data.why || "no move")}</p>`);
}

function handHtml(hand) {
  const v = game;
  const acting = v.phase !== "over" && hand.seat === v.actor;
  const label = `${esc(hand.name)}${hand.seat === v.me ? " (you)" : ""}`;
  const note = hand.problem ? `<span class="muted">${esc(hand.problem)}</span>` : hand.approximate && hand.seat !== v.me ? `<span class="muted">≈ their view</span>` : "";
  const cards = hand.cards.map((card) => cardHtml(hand.seat, card)).join("");
  return `<section class="hand${acting ? " acting" : ""}" data-hand="${esc(hand.name)}">
    <div class="hand-name"><span>${label}${acting ? " ▸" : ""}</span>${note}</div>
    <div class="cards">${cards || "<span class=muted>no cards</span>"}</div></section>`;
}

function flagText(card) {
  const marks = [];
  if (card.flags.includes("playable")) marks.push("play");
  else if (card.p_playable) marks.push(`▶${pct(card.p_playable)}`);
  if (card.flags.includes("trash")) marks.push("trash");
  if (card.flags.includes("critical")) marks.push("!");
  return marks.join(" ");
}

function cardHtml(seat, card) {
  const classes = ["card"];
  if (card.flags.includes("playable")) classes.push("playable");
  if (card.flags.includes("trash")) classes.push("trash");
  if (card.flags.includes("critical")) classes.push("critical");
  let face;
  if (card.card) {
    classes.push(`c-${card.card[0]}`);
    const known = card.flags.includes("known") ? "knows" : card.top.length ? `${card.top[0][0]} ${pct(card.top[0][1])}` : "";
    face = `<span class="rank">${card.card[1]}</span><span class="guess">${esc(known)}</span>`;
  } else {
    classes.push("unknown");
    const guesses = card.top.slice(0, 2).map(([identity, p]) => `${identity} ${pct(p)}`).join("<br>");
    face = `<span class="rank">?</span><span class="guess">${guesses}</span>`;
  }
  return `<button type="button" class="${classes.join(" ")}" data-card-seat="${seat}" data-card-slot="${card.slot}"
    aria-label="${esc(name(seat))} slot ${card.slot}">${face}<span class="flags">${flagText(card)}</span></button>`;
}

// ----- input: the bar at the bottom --------------------------------------------
function button(attrs, label, extra = "") {
  const data = Object.entries(attrs).map(([key, value]) => `data-${key}="${esc(value)}"`).join(" ");
  return `<button type="button" ${data} ${extra}>${label}</button>`;
}

function padHtml(onlyFits) {
  const v = game;
  return `<div class="pad" id="pad">${v.suits.map((suit) => `<span class="chip c-${suit}">${suit}</span>` + [1, 2, 3, 4, 5].map((rank) => {
    const card = `${suit}${rank}`;
    const left = v.pad[card];
    const allowed = onlyFits ? onlyFits.includes(card) : left > 0;
    return `<button type="button" class="c-${suit}" data-pick="${card}" ${allowed ? "" : "disabled"}>${rank}<span class="count">${left}×</span></button>`;
  }).join("")).join("")}</div>`;
}

function renderBar() {
  const v = game;
  const bar = $("#bar");
  bar.hidden = false;
  const cancel = flow ? button({ step: "cancel" }, "Cancel") : "";
  let html;
  if (v.phase === "over") {
    const words = v.state.rating ? ` (${v.state.rating})` : "";
    html = `<div class="prompt">Game over: score ${v.state.score}/${v.state.max_score}${esc(words)}, ${esc(v.state.end)}.</div>
      <div class="row">${button({ step: "review" }, "Review and export", 'class="primary" id="review"')}</div>`;
  } else if (v.phase === "deal" || v.phase === "draw") {
    html = `<div class="prompt">${esc(name(v.actor))} draws: which card?</div>${padHtml(null)}`;
    flow = { kind: "draw" };
  } else if (!flow) {
    const legal = v.legal;
    html = `<div class="prompt">${esc(name(v.actor))}'s turn</div><div class="row">
      ${button({ act: "hint" }, "Hint", legal.hint ? "" : "disabled")}${button({ act: "play" }, "Play", legal.play ? "" : "disabled")}
      ${button({ act: "discard" }, "Discard", legal.discard ? "" : "disabled")}${legal.pass ? button({ act: "pass" }, "Pass") : ""}
      ${button({ act: "move" }, "Reorder")}</div>`;
  } else {
    html = stepHtml() + `<div class="row">${cancel}</div>`;
  }
  bar.innerHTML = html;
}

function stepHtml() {
  const v = game;
  const actor = name(v.actor);
  if (flow.kind === "hint") {
    if (flow.clue === undefined) {
      const others = v.seats.map((_, seat) => seat).filter((seat) => seat !== v.actor);
      const clues = (target) => `<div class="row">${v.suits.map((suit) => button({ target, clue: suit }, WORDS[suit], `class="c-${suit}"`)).join("")}</div>
        <div class="row">${[1, 2, 3, 4, 5].map((rank) => button({ target, clue: rank }, rank)).join("")}</div>`;
      return `<div class="prompt">${esc(actor)} hints:</div>${others.map((target) =>
        `<div class="hint-target">to <b>${esc(name(target))}</b>${clues(target)}</div>`).join("")}`;
    }
    const hand = v.hands[flow.target];
    return `<div class="prompt">Which of ${esc(name(flow.target))}'s cards did ${esc(clueWord(flow.clue))} touch?</div>
      <div class="row">${hand.cards.map((card) => button({ touch: card.slot }, `slot ${card.slot}${card.card ? ` ${card.card}` : ""}`,
        flow.slots.includes(card.slot) ? 'class="chosen"' : "")).join("")}</div>
      <div class="row">${button({ step: "done" }, "Done", `class="primary" id="done" ${flow.slots.length || v.settings.empty_hints ? "" : "disabled"}`)}</div>`;
  }
  if (flow.kind === "play" || flow.kind === "discard") {
    const hand = v.hands[v.actor];
    if (flow.slot === undefined) {
      return `<div class="prompt">${esc(actor)} ${flow.kind}s which card?</div><div class="row">${hand.cards.map((card) =>
        button({ slot: card.slot }, `slot ${card.slot}${card.card ? ` ${card.card}` : ""}`)).join("")}</div>`;
    }
    if (flow.kind === "play" && v.settings.choreography && flow.announce === undefined) {
      return `<div class="prompt">Did ${esc(actor)} announce a colour?</div><div class="row">${button({ announce: "" }, "No")}
        ${v.suits.map((suit) => button({ announce: suit }, WORDS[suit], `class="c-${suit}"`)).join("")}</div>`;
    }
    const fits = hand.cards[flow.slot - 1].top.length ? Object.keys(hand.cards[flow.slot - 1].grid) : null;
    return `<div class="prompt">Which card was it?</div>${padHtml(fits)}`;
  }
  if (flow.kind === "move") {
    if (flow.seat === undefined) {
      return `<div class="prompt">Whose hand was reordered?</div><div class="row">${v.seats.map((seat, index) => button({ seat: index }, esc(seat))).join("")}</div>`;
    }
    const hand = v.hands[flow.seat];
    const pick = flow.from === undefined ? "from" : "to";
    return `<div class="prompt">${esc(name(flow.seat))} moves the card ${flow.from === undefined ? "from" : `from slot ${flow.from} to`} slot:</div>
      <div class="row">${hand.cards.map((card) => button({ [pick]: card.slot }, `${card.slot}`)).join("")}</div>`;
  }
  return "";
}

function clueWord(clue) {
  return WORDS[clue] || String(clue);
}

async function submit(event) {
  flow = null;
  await change("events", { event });
}

async function change(path, body) {
  setBusy(true);
  try {
    setGame(await api("POST", `/api/games/${game.id}/${path}`, { version: game.version, ...body }));
    return true;
  } catch (error) {
    toast(error.message);
    if (error.status === 409) await refresh();
    else renderBar();
    return false;
  } finally {
    setBusy(false);
  }
}

$("#bar").addEventListener("click", async (event) => {
  const target = event.target.closest("button");
  if (!target || busy || !game) return;
  const d = target.dataset;
  const v = game;
  const actor = name(v.actor);
  if (d.step === "cancel") { flow = null; renderBar(); return; }
  if (d.step === "review") { openReview(); return; }
  if (d.act) {
    if (d.act === "pass") { await submit({ pass: actor }); return; }
    flow = { kind: d.act, slots: [] };
    renderBar();
    return;
  }
  if (flow && flow.kind === "draw" && d.pick) { await submit({ draw: actor, card: d.pick }); return; }
  if (!flow) return;
  if (flow.kind === "hint") {
    if (d.clue !== undefined) {
      flow.target = Number(d.target);
      flow.clue = d.clue;
      const hand = v.hands[flow.target];
      if (hand.cards.every((card) => card.card)) {
        await submit({ hint: actor, target: name(flow.target), clue: flow.clue });
        return;
      }
    } else if (d.touch !== undefined) {
      const slot = Number(d.touch);
      flow.slots = flow.slots.includes(slot) ? flow.slots.filter((other) => other !== slot) : [...flow.slots, slot].sort();
    } else if (d.step === "done") {
      await submit({ hint: actor, target: name(flow.target), clue: flow.clue, touched: flow.slots });
      return;
    }
  } else if (flow.kind === "play" || flow.kind === "discard") {
    if (d.slot !== undefined) flow.slot = Number(d.slot);
    else if (d.announce !== undefined) flow.announce = d.announce;
    else if (d.pick) flow.card = d.pick;
    const known = flow.slot !== undefined && v.hands[v.actor].cards[flow.slot - 1].card;
    const announced = flow.kind !== "play" || !v.settings.choreography || flow.announce !== undefined;
    if (flow.slot !== undefined && announced && (known || flow.card)) {
      const event = { [flow.kind]: actor, slot: flow.slot };
      if (flow.card) event.card = flow.card;
      if (flow.announce) event.announce = flow.announce;
      await submit(event);
      return;
    }
  } else if (flow.kind === "move") {
    if (d.seat !== undefined) flow.seat = Number(d.seat);
    else if (d.from !== undefined) flow.from = Number(d.from);
    else if (d.to !== undefined) {
      await submit({ move: name(flow.seat), from: flow.from, to: Number(d.to) });
      return;
    }
  }
  renderBar();
});

$("#undo").addEventListener("click", async () => {
  if (busy || !game) return;
  setBusy(true);
  try {
    const view = await api("POST", `/api/games/${game.id}/undo`, { version: game.version });
    flow = null;
    setGame(view);
    toast(`Undone: ${view.undone.join(", ")}`, true);
  } catch (error) {
    toast(error.message);
    if (error.status === 409) await refresh();
  } finally {
    setBusy(false);
  }
});

// ----- sheets: a card's candidates, fixing an event, the review -------------------
function openSheet(html) {
  $("#sheet-body").innerHTML = html;
  $("#sheet").hidden = false;
}

function closeSheet() {
  $("#sheet").hidden = true;
  $("#sheet-body").innerHTML = "";
}

$("#sheet").addEventListener("click", (event) => { if (event.target.id === "sheet" || event.target.closest("[data-close]")) closeSheet(); });

$("#main").addEventListener("click", (event) => {
  if (!game) return;
  const tile = event.target.closest("[data-card-seat]");
  if (tile) { showCard(Number(tile.dataset.cardSeat), Number(tile.dataset.cardSlot)); return; }
  const fix = event.target.closest("[data-fix]");
  if (fix) openFix(Number(fix.dataset.fix));
});

function showCard(seat, slot) {
  const card = game.hands[seat].cards[slot - 1];
  const whose = seat === game.me ? "you" : name(seat);
  const rows = game.suits.map((suit) => `<tr><th class="c-${suit}">${suit}</th>${[1, 2, 3, 4, 5].map((rank) => {
    const p = card.grid[`${suit}${rank}`];
    return `<td>${p === undefined ? "·" : pct(p)}</td>`;
  }).join("")}</tr>`).join("");
  openSheet(`<h2>${esc(name(seat))}'s slot ${slot}${card.card ? `: ${card.card}` : ""}</h2>
    <p class="muted">What ${esc(whose)} can know${game.hands[seat].approximate && seat !== game.me ? " (approximate: the record lacks cards they see)" : ""}.
    Hints: ${esc(card.facts || "none")}. ${card.flags.length ? `Flags: ${esc(card.flags.join(", "))}.` : ""}
    ${card.p_playable !== null ? `Playable ${pct(card.p_playable)}, trash ${pct(card.p_trash)}, critical ${pct(card.p_critical)}.` : ""}</p>
    <table class="grid"><tr><th></th>${[1, 2, 3, 4, 5].map((rank) => `<th>${rank}</th>`).join("")}</tr>${rows}</table>
    <div class="row">${button({ close: 1 }, "Close")}</div>`);
}

function openFix(number) {
  const entry = game.log[number - 1];
  openSheet(`<h2>Fix event ${number}</h2><p class="muted">The game is replayed with the corrected event; if it no longer fits, nothing changes.</p>
    <input type="text" id="fix-text" value="${esc(entry.text)}" aria-label="Corrected event">
    ${entry.card ? `<p>Or pick the right card:</p>${padHtml(game.suits.flatMap((suit) => [1, 2, 3, 4, 5].map((rank) => `${suit}${rank}`)))}` : ""}
    <div class="row">${button({ close: 1 }, "Cancel")}${button({ save: number }, "Save", 'class="primary" id="fix-save"')}</div>`);
  const sheet = $("#sheet-body");
  sheet.onclick = async (event) => {
    const target = event.target.closest("button");
    if (!target || busy) return;
    let text = null;
    if (target.dataset.pick) text = entry.text.replace(entry.card, target.dataset.pick);
    else if (target.dataset.save) text = $("#fix-text").value;
    if (text === null) return;
    if (await change("fix", { number, text })) { closeSheet(); toast(`Event ${number} fixed`, true); }
  };
}

function openReview() {
  const entries = game.review || [];
  const rows = entries.map((entry) => `<label>${esc(entry.where)}</label>
    <select data-position="${entry.position}" aria-label="${esc(entry.where)}"><option value="">unknown</option>
    ${entry.fits.map((card) => `<option value="${card}">${card}</option>`).join("")}</select>`).join("");
  openSheet(`<h2>Review</h2>
    <p class="muted">${entries.length ? "Cards never revealed: pick each one you saw, or leave it unknown (exported as unidentified)." : "Every card of this game is known."}</p>
    ${rows}
    <div class="row">${button({ export: "hanablive" }, "hanab.live JSON", 'class="primary" id="export-hanablive"')}
    ${button({ export: "log" }, "Our log", 'id="export-log"')}${button({ close: 1 }, "Close")}</div>`);
  $("#sheet-body").onclick = async (event) => {
    const target = event.target.closest("[data-export]");
    if (!target || busy) return;
    const cards = {};
    document.querySelectorAll("#sheet-body select").forEach((select) => { if (select.value) cards[select.dataset.position] = select.value; });
    try {
      const data = await api("POST", `/api/games/${game.id}/export`, { version: game.version, cards, format: target.dataset.export });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
      link.download = `${game.id}-${target.dataset.export}.json`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      toast("Exported", true);
    } catch (error) { toast(error.message); }
  };
}

route();
