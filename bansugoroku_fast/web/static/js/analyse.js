// The analyse view: a match file (or the match just played) analysed on the
// server, with its progress; then the players' statistics, the equity
// through each game, every decision with its mark, the board at any
// decision and the best plays beside the one played.
//
// Everything a match file holds (names, plays) is shown as text
// (textContent), never as markup.

import { call, open } from "./api.js";
import { drawBoard } from "./board.js";
import { signed, textItem } from "./game.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

export class AnalyseView {
  constructor() {
    this.job = null;
    this.analysis = null;
    this.rows = []; // the decisions shown, in order
    this.selected = -1;
    $("analyse-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.analyseFile();
    });
    $("cancel-analysis").addEventListener("click", () => this.cancel());
    $("marked-only").addEventListener("change", () => this.renderDecisions());
  }

  openFile() {
    $("match-file").click();
  }

  async analyseFile() {
    const file = $("match-file").files[0];
    if (!file) {
      this.say("Choose a match file (.mat) first.");
      return;
    }
    if (file.size > 900000) {
      this.say(`${file.name} is ${file.size} bytes: the server takes match files up to 900 kB.`);
      return;
    }
    const text = await file.text();
    await this.run("/api/jobs", { match: text, ply: this.ply(), name: file.name });
  }

  analyseGame() {
    return this.run("/api/game/analyse", { ply: this.ply() });
  }

  ply() {
    return Number($("analyse-ply").value);
  }

  say(text) {
    $("analyse-message").textContent = text;
  }

  // Starts a job and follows it until it ends.
  async run(path, body) {
    this.say("");
    let state;
    try {
      state = await call("POST", path, body);
    } catch (error) {
      this.say(error.message);
      return;
    }
    this.job = state.job;
    $("progress-box").hidden = false;
    while (state.status === "running") {
      $("progress").value = state.total ? state.done / state.total : 0;
      $("progress-text").textContent = `${state.done} of ${state.total} checker plays analysed`;
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (this.job !== state.job) return; // another analysis replaced this one
      try {
        state = await call("GET", `/api/jobs/${encodeURIComponent(state.job)}`);
      } catch (error) {
        this.say(error.message);
        break;
      }
    }
    $("progress-box").hidden = true;
    this.job = null;
    if (state.status === "done") {
      this.show(state.analysis);
      this.say("");
    } else if (state.status === "cancelled") {
      this.say("The analysis was cancelled.");
    } else if (state.status === "failed") {
      this.say(`The analysis failed: ${state.error}`);
    }
  }

  async cancel() {
    if (!this.job) return;
    const id = this.job;
    this.job = null;
    try {
      await call("DELETE", `/api/jobs/${encodeURIComponent(id)}`);
    } catch (error) {
      this.say(error.message);
      return;
    }
    $("progress-box").hidden = true;
    this.say("The analysis was cancelled.");
  }

  show(analysis) {
    this.analysis = analysis;
    $("analysis").hidden = false;
    const kind = analysis.match_length ? `${analysis.match_length}-point match` : "money play";
    const games = analysis.games.length;
    $("analysis-title").textContent = `${analysis.source ? analysis.source + ": " : ""}${analysis.names[0]} v ${analysis.names[1]}, `
      + `${kind}, ${analysis.rules}, ${games} game${games === 1 ? "" : "s"}, ${analysis.ply} ply`;
    this.renderStatistics();
    this.renderPlot();
    this.renderDecisions();
    const first = this.rows.findIndex((d) => d.mark);
    this.select(first >= 0 ? first : 0);
  }

  renderStatistics() {
    const [a, b] = this.analysis.players;
    const number = (value, digits = 3) => (value === null || value === undefined ? "–" : value.toFixed(digits));
    const rows = [
      ["Checker plays (unforced)", (p) => `${p.moves} (${p.unforced})`],
      ["Close cube decisions", (p) => String(p.close_cube)],
      ["Checker error", (p) => number(p.checker_error)],
      ["Cube error", (p) => number(p.cube_error)],
      ["Error rate (mp per decision)", (p) => number(p.error_rate, 1)],
      ["Doubtful / bad / very bad", (p) => `${p.marks.doubtful} / ${p.marks.bad} / ${p.marks["very bad"]}`],
      ["Luck", (p) => signed(p.luck)],
      ["Rating", (p) => p.rating || "–"],
    ];
    const head = document.createElement("tr");
    for (const text of ["", a.name, b.name]) head.append(cell("th", text));
    $("stats").tHead.replaceChildren(head);
    $("stats").tBodies[0].replaceChildren(...rows.map(([label, value]) => {
      const row = document.createElement("tr");
      row.append(cell("th", label), cell("td", value(a)), cell("td", value(b)));
      return row;
    }));
  }

  // The equity after each checker play, from player 1's side, one line per game.
  renderPlot() {
    const plays = this.analysis.decisions
      .map((d, index) => ({ d, index }))
      .filter(({ d }) => d.kind === "play" && d.played_equity !== null && d.played_equity !== undefined);
    const width = 720;
    const height = 180;
    const top = Math.max(1, ...plays.map(({ d }) => Math.abs(d.played_equity)));
    const x = (i) => 20 + (i * (width - 40)) / Math.max(plays.length - 1, 1);
    const y = (e) => height / 2 - (e / top) * (height / 2 - 10);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Equity through each game");
    svg.append(svgElement("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "axis" }));
    let game = null;
    let path = "";
    const lines = [];
    plays.forEach(({ d }, i) => {
      const equity = d.player === 0 ? d.played_equity : -d.played_equity;
      if (d.game !== game) {
        if (path) lines.push(path);
        path = "";
        game = d.game;
        if (i > 0) svg.append(svgElement("line", { x1: x(i) - 3, x2: x(i) - 3, y1: 0, y2: height, class: "game-edge" }));
      }
      path += `${path ? "L" : "M"}${x(i).toFixed(1)},${y(equity).toFixed(1)}`;
    });
    if (path) lines.push(path);
    for (const d of lines) svg.append(svgElement("path", { d, class: "equity" }));
    plays.forEach(({ d, index }, i) => {
      const equity = d.player === 0 ? d.played_equity : -d.played_equity;
      const dot = svgElement("circle", { cx: x(i), cy: y(equity), r: d.mark ? 4 : 2.5, class: `dot ${markClass(d.mark)}` });
      const title = document.createElementNS(SVG, "title");
      title.textContent = `Game ${d.game}, move ${d.move_number}: ${d.played || "no play"} (${signed(equity)})`;
      dot.append(title);
      dot.addEventListener("click", () => {
        $("marked-only").checked = false;
        this.renderDecisions();
        this.select(this.rows.indexOf(this.analysis.decisions[index]));
      });
      svg.append(dot);
    });
    $("plot").replaceChildren(svg);
  }

  renderDecisions() {
    if (!this.analysis) return;
    const current = this.rows[this.selected];
    const markedOnly = $("marked-only").checked;
    this.rows = this.analysis.decisions.filter((d) => !markedOnly || d.mark);
    const names = this.analysis.names;
    $("decisions").tBodies[0].replaceChildren(...this.rows.map((d, index) => {
      const row = document.createElement("tr");
      row.className = `${markClass(d.mark)}${d.forced ? " forced" : ""}`;
      const roll = d.kind === "play" ? (d.dice || []).join("-") : `cube ${d.cube}`;
      const played = d.kind === "play" ? d.played || "(no play)" : d.action;
      const best = d.kind === "play" ? d.best || "" : d.proper;
      row.append(cell("td", String(d.game)), cell("td", String(d.move_number)), cell("td", names[d.player]),
        cell("td", roll), cell("td", played), cell("td", best), cell("td", d.loss ? d.loss.toFixed(3) : ""),
        cell("td", d.mark || ""));
      row.tabIndex = -1;
      row.addEventListener("click", () => this.select(index));
      return row;
    }));
    const again = this.rows.indexOf(current);
    this.selected = -1;
    if (this.rows.length) this.select(again >= 0 ? again : 0);
  }

  step(by) {
    if (this.rows.length) this.select(Math.min(Math.max(this.selected + by, 0), this.rows.length - 1));
  }

  nextMarked() {
    for (let i = this.selected + 1; i < this.rows.length; i++) {
      if (this.rows[i].mark) return this.select(i);
    }
    return null;
  }

  async select(index) {
    if (index < 0 || index >= this.rows.length) return;
    const body = $("decisions").tBodies[0];
    if (this.selected >= 0 && body.rows[this.selected]) body.rows[this.selected].classList.remove("selected");
    this.selected = index;
    const row = body.rows[index];
    row.classList.add("selected");
    row.scrollIntoView({ block: "nearest" });
    const d = this.rows[index];
    const who = this.analysis.names[d.player];
    $("detail-title").textContent = d.kind === "play"
      ? `Game ${d.game}, move ${d.move_number}: ${who} rolls ${(d.dice || []).join("-")} and plays ${d.played || "nothing"}`
        + (d.mark ? ` (${d.mark}, −${d.loss.toFixed(3)})` : "")
      : `Game ${d.game}, move ${d.move_number}: ${who}: ${d.action} (proper: ${d.proper})`;
    const candidates = $("candidates");
    candidates.replaceChildren();
    try {
      const board = await open("POST", "/api/board", { position: d.position_id });
      if (this.rows[this.selected] !== d) return;
      drawBoard($("detail-board"), board.svg);
      if (d.kind === "play" && d.played) {
        const best = await open("POST", "/api/best", {
          position: d.position_id, dice: d.dice, rules: this.analysis.rules, ply: this.analysis.ply, limit: 8,
        });
        if (this.rows[this.selected] !== d) return;
        const top = best.plays.length ? best.plays[0].equity : 0;
        const items = best.plays.map((p) => {
          const item = textItem(`${p.play}  ${signed(p.equity)}  (${signed(p.equity - top)})`);
          if (p.play === d.played) item.classList.add("played");
          return item;
        });
        if (!best.plays.some((p) => p.play === d.played)) {
          const item = textItem(`${d.played}  ${signed(d.played_equity)}  (played)`);
          item.classList.add("played");
          items.push(item);
        }
        candidates.replaceChildren(...items);
      } else if (d.kind === "cube") {
        candidates.replaceChildren(
          textItem(`No double: ${signed(d.no_double)}`),
          textItem(`Double, take: ${signed(d.double_take)}`),
          textItem(`Double, pass: ${signed(d.double_pass)}`),
        );
      }
    } catch (error) {
      this.say(error.message);
    }
  }
}

function cell(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

function svgElement(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

function markClass(mark) {
  return mark ? `mark-${mark.replace(" ", "-")}` : "";
}
