// The board: the library's SVG (drawn by the server), with the stones you
// can move lit, and the points they can reach lit once one is picked.
// A stone moves by a click on it then on its target, or by dragging it.

// Draws `svgText` in `container`. `moves` is the list of {from, to} the
// server allows now; `onMove(from, to)` is called for a move made on the board.
export function drawBoard(container, svgText, moves = [], onMove = null) {
  container.innerHTML = svgText; // made by the server from numbers only: no text of a file
  const svg = container.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  if (!onMove || moves.length === 0) return;

  const hits = new Map();
  for (const rect of svg.querySelectorAll("rect.hit")) hits.set(Number(rect.dataset.point), rect);
  const sources = new Set(moves.map((m) => m.from));
  let picked = null;

  const light = () => {
    for (const [point, rect] of hits) {
      rect.classList.toggle("source", sources.has(point) && picked === null);
      rect.classList.toggle("picked", point === picked);
      rect.classList.toggle("target", picked !== null && moves.some((m) => m.from === picked && m.to === point));
    }
  };
  const pointAt = (event) => {
    const element = document.elementFromPoint(event.clientX, event.clientY);
    const rect = element && element.closest ? element.closest("rect.hit") : null;
    return rect ? Number(rect.dataset.point) : null;
  };
  const tryMove = (to) => {
    if (picked !== null && moves.some((m) => m.from === picked && m.to === to)) {
      const from = picked;
      picked = null;
      light();
      onMove(from, to);
      return true;
    }
    return false;
  };

  let dragFrom = null;
  svg.addEventListener("pointerdown", (event) => {
    const point = pointAt(event);
    if (point === null) return;
    if (tryMove(point)) return;
    picked = sources.has(point) ? point : null;
    dragFrom = picked;
    light();
  });
  svg.addEventListener("pointerup", (event) => {
    const point = pointAt(event);
    if (dragFrom !== null && point !== null && point !== dragFrom) tryMove(point);
    dragFrom = null;
  });
  light();
}
