// The page: the two views, the New game dialog and the keys.

import { AnalyseView } from "./analyse.js";
import { hasSession, openSession } from "./api.js";
import { GameView } from "./game.js";

const $ = (id) => document.getElementById(id);

const analyse = new AnalyseView();
const game = new GameView({
  onAnalyse: () => {
    showView("analyse");
    analyse.analyseGame();
  },
  onError: (text) => {
    $("message").textContent = text;
  },
});

function showView(name) {
  $("play-view").hidden = name !== "play";
  $("analyse-view").hidden = name !== "analyse";
  $("show-play").setAttribute("aria-pressed", String(name === "play"));
  $("show-analyse").setAttribute("aria-pressed", String(name === "analyse"));
}

// --- the New game dialog ---

const dialog = $("new-game-dialog");
const form = $("new-game-form");

function syncDialog() {
  const backgammon = form.elements.variant.value === "backgammon";
  $("ban-options").disabled = backgammon;
  $("cube-options").disabled = !backgammon;
  const pubeval = form.elements.policy.querySelector('option[value="pubeval"]');
  pubeval.disabled = !backgammon;
  if (!backgammon && form.elements.policy.value === "pubeval") form.elements.policy.value = "net";
}

function settings() {
  const f = form.elements;
  const backgammon = f.variant.value === "backgammon";
  const rules = backgammon
    ? "backgammon"
    : `ban-sugoroku,finish=${f.finish.value},closure=${f.closure.value},start=${f.start.value}`;
  const chosen = {
    rules,
    computer_seat: Number(f.computer_seat.value),
    policy: f.policy.value,
    cube_limit: backgammon ? Number(f.cube_limit.value) : 0,
    speed: Number(f.speed.value),
  };
  if (f.seed.value.trim() !== "") chosen.seed = Number(f.seed.value);
  if (f.position.value.trim() !== "") chosen.position = f.position.value.trim();
  return chosen;
}

function openDialog() {
  if (dialog.open) return;
  $("new-game-error").textContent = "";
  syncDialog();
  dialog.showModal();
}

form.addEventListener("change", syncDialog);
dialog.addEventListener("close", async () => {
  if (dialog.returnValue !== "start") return;
  showView("play");
  try {
    await game.start(settings());
  } catch (error) {
    $("new-game-error").textContent = error.message;
    dialog.showModal();
  }
});

// --- keys ---

const keys = {
  n: openDialog,
  g: () => showView("play"),
  a: () => showView("analyse"),
  "?": () => $("keys-dialog").showModal(),
};
const playKeys = {
  r: () => game.act("roll"),
  d: () => game.act("double"),
  t: () => game.act("take"),
  p: () => game.act("drop"),
  u: () => game.act("undo"),
  h: () => game.hint(),
  enter: () => game.state && game.state.can.next && game.act("next"),
  x: () => game.state && game.state.analysable && $("analyse-game").click(),
};
const analyseKeys = {
  o: () => analyse.openFile(),
  c: () => analyse.cancel(),
  j: () => analyse.step(1),
  arrowdown: () => analyse.step(1),
  k: () => analyse.step(-1),
  arrowup: () => analyse.step(-1),
  m: () => analyse.nextMarked(),
};

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return; // the dialog's own keys
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  const key = event.key.toLowerCase();
  const inPlay = !$("play-view").hidden;
  if (key === "enter" && target instanceof HTMLButtonElement) return; // Enter presses the focused button
  let action = keys[key] || (inPlay ? playKeys[key] : analyseKeys[key]);
  if (!action && inPlay && /^[1-9]$/.test(key)) action = () => game.moveByIndex(Number(key) - 1);
  if (!action) return;
  event.preventDefault();
  action();
});

// --- the buttons of the header ---

$("show-play").addEventListener("click", () => showView("play"));
$("show-analyse").addEventListener("click", () => showView("analyse"));
$("new-game-button").addEventListener("click", openDialog);
$("keys-button").addEventListener("click", () => $("keys-dialog").showModal());

// --- start: the game of this tab's session if there is one, else the dialog ---

(async () => {
  if (!hasSession()) await openSession();
  if (!(await game.resume())) openDialog();
})();
