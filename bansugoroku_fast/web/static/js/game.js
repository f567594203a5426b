// The play view: a match against the computer.

import { call } from "./api.js";
import { drawBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// While the page waits for the server or shows the computer's moves, <body> is .busy.
function setBusy(busy) {
  document.body.classList.toggle("busy", busy);
}

export class GameView {
  constructor({ onAnalyse, onError }) {
    this.state = null;
    this.busy = false;
    this.speed = 300;
    this.onAnalyse = onAnalyse;
    this.onError = onError;
    const actions = { roll: "roll", double: "double", take: "take", drop: "drop", undo: "undo", next: "next" };
    for (const [id, action] of Object.entries(actions)) {
      $(id).addEventListener("click", () => this.act(action));
    }
    $("hint").addEventListener("click", () => this.hint());
    $("analyse-game").addEventListener("click", () => this.onAnalyse());
  }

  // Starts a match with the New game dialog's `settings` (the API's fields, and `speed`).
  async start(settings) {
    const { speed, ...body } = settings;
    this.speed = speed;
    const state = await call("POST", "/api/game", body, () => this.expired());
    await this.show(state);
  }

  // Shows the session's game, if it has one; false if not.
  async resume() {
    const session = await call("GET", "/api/sessions");
    if (!session.game) return false;
    await this.show(await call("GET", "/api/game"));
    return true;
  }

  expired() {
    this.onError("Your session had expired: a new one is open; start a new game.");
  }

  // One action of the person; the answer holds the computer's reply.
  async act(action, body) {
    if (this.busy || !this.state) return;
    this.busy = true;
    setBusy(true);
    try {
      const path = action === "move" ? "/api/game/move" : `/api/game/${action}`;
      const state = await call("POST", path, body, () => this.expired());
      this.busy = false;
      await this.show(state);
    } catch (error) {
      this.busy = false;
      $("message").textContent = error.message;
    }
    setBusy(this.busy);
  }

  move(from, to) {
    return this.act("move", { from, to });
  }

  moveByIndex(index) {
    const moves = this.state && this.state.phase === "move" ? this.state.moves : [];
    if (index < moves.length) return this.move(moves[index].from, moves[index].to);
    return null;
  }

  // Shows the computer's actions step by step, then the state.
  async show(state) {
    this.busy = true;
    setBusy(true);
    try {
      for (const event of state.events) {
        if (!event.frames || this.speed === 0) continue;
        $("dice").replaceChildren(...dieFaces(event.dice));
        for (const frame of event.frames) {
          drawBoard($("board"), frame.board);
          $("message").textContent = `The computer plays ${frame.move}`;
          await wait(this.speed);
        }
      }
    } finally {
      this.busy = false;
    }
    this.state = state;
    this.render();
    setBusy(false);
  }

  render() {
    const s = this.state;
    $("play-view").dataset.phase = s.phase;
    const rules = s.rules === "backgammon" ? "Backgammon" : `Ban-sugoroku (${s.rules.replace("ban-sugoroku,", "")})`;
    $("game-title").textContent = `${rules}: you against the computer (${s.computer.policy}), game ${s.game}`;
    $("score").textContent = `Score: you ${s.score.you}, the computer ${s.score.computer}`;
    const last = s.events.length ? s.events[s.events.length - 1].text : "";
    $("message").textContent = phaseText(s) || last || s.message;
    $("dice").replaceChildren(...dieFaces(s.dice, s.phase === "move" ? s.dice_left : null, s.rules === "backgammon" ? 4 : 2));
    const cube = s.cube_limit ? ` · cube ${s.cube.value}${s.cube.owner ? `, ${s.cube.owner === "you" ? "yours" : "the computer's"}` : ", in the middle"}` : "";
    $("counts").textContent = `Pips: you ${s.pips.you}, the computer ${s.pips.computer} · off: ${s.off.you}–${s.off.computer}${cube}`;
    for (const [id, can] of Object.entries(s.can)) {
      const button = $(id);
      if (button) button.disabled = !can;
    }
    $("analyse-game").disabled = !s.analysable;
    drawBoard($("board"), s.board, s.phase === "move" ? s.moves : [], (from, to) => this.move(from, to));
    const moves = $("moves");
    moves.replaceChildren(
      ...(s.phase === "move" ? s.moves : []).map((move, index) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "move";
        button.textContent = index < 9 ? `${index + 1}: ${move.text}` : move.text;
        button.addEventListener("click", () => this.move(move.from, move.to));
        item.append(button);
        return item;
      }),
    );
    $("history").replaceChildren(...s.history.map((line) => textItem(line)));
    const result = $("result");
    result.hidden = !s.result;
    result.textContent = s.result ? `${s.result.text} Score: you ${s.score.you}, the computer ${s.score.computer}.` : "";
    if (s.phase !== "move" && s.phase !== "roll") $("hints").hidden = true;
  }

  async hint() {
    if (this.busy || !this.state || !this.state.can.hint) return;
    this.busy = true;
    setBusy(true);
    try {
      const hint = await call("POST", "/api/game/hint", { ply: 1 });
      const list = $("hint-list");
      const items = hint.plays.map((play) => {
        const item = textItem(`${play.play}  ${signed(play.equity)}`);
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Play it";
        button.addEventListener("click", async () => {
          if (this.state.steps.length) await this.act("undo");
          await this.act("move", { play: play.play });
        });
        item.append(" ", button);
        return item;
      });
      if (hint.equity !== undefined && hint.equity !== null) {
        items.push(textItem(`Your equity before the roll: ${signed(hint.equity)}`));
      }
      if (hint.cube) items.push(textItem(`Cube: ${hint.cube.action}`));
      list.replaceChildren(...items);
      $("hints").hidden = false;
    } catch (error) {
      $("message").textContent = error.message;
    } finally {
      this.busy = false;
      setBusy(false);
    }
  }
}

function phaseText(s) {
  if (s.phase === "roll") return s.can.double ? "Your turn: roll, or double." : "Your turn: roll.";
  if (s.phase === "move") {
    const steps = s.steps.length ? ` So far: ${s.steps.join(" ")}.` : "";
    return `You rolled ${s.dice.join("-")}: move ${s.dice_left.join(", ")}.${steps}`;
  }
  if (s.phase === "answer") return `The computer doubles to ${s.cube.value * 2}: take or pass?`;
  return "";
}

// The dice as faces; with `left` (the dice still to play), the played ones greyed;
// a double shows `doubles` dice.
function dieFaces(dice, left = null, doubles = 2) {
  if (!dice) return [];
  const remaining = left ? [...left] : null;
  const faces = dice[0] === dice[1] ? Array(doubles).fill(dice[0]) : dice;
  return faces.map((value) => {
    const die = document.createElement("span");
    die.className = "die";
    die.textContent = String(value);
    if (remaining) {
      const at = remaining.indexOf(value);
      if (at >= 0) remaining.splice(at, 1);
      else die.classList.add("used");
    }
    return die;
  });
}

export function textItem(text) {
  const item = document.createElement("li");
  item.textContent = text;
  return item;
}

export function signed(value) {
  return (value >= 0 ? "+" : "") + value.toFixed(3);
}
