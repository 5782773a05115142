"use strict";
// Scores over time: a hand-written SVG step chart, one line per seat, with a cursor at the
// current step. Clicking the chart asks to go to the step under the pointer.
Referee.chart = (() => {
  const { s, seatColour, num } = Referee.dom;
  const W = 640, H = 190, LEFT = 64, RIGHT = 10, TOP = 10, BOTTOM = 22;

  /** Round tick values spanning [lo, hi]. */
  function ticks(lo, hi, count) {
    if (lo === hi) return [lo];
    const raw = (hi - lo) / count;
    const mag = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((m) => m >= raw) || raw;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
    return out;
  }

  /**
   * series: one array per seat of [step, score] points (a score holds until the next point);
   * lastStep: the x axis's end; onPick(step): called when the chart is clicked.
   * Returns {el, setCursor(step), highlight(seat|null)}.
   */
  function scores(series, lastStep, onPick) {
    const values = series.flat().map((p) => p[1]);
    let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
    if (lo === hi) hi = lo + 1;
    const span = Math.max(1, lastStep);
    const x = (step) => LEFT + ((W - LEFT - RIGHT) * step) / span;
    const y = (v) => TOP + ((H - TOP - BOTTOM) * (hi - v)) / (hi - lo);
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "scores over time" });
    for (const t of ticks(lo, hi, 4)) {
      svg.append(s("line", { x1: LEFT, x2: W - RIGHT, y1: y(t), y2: y(t), class: t === 0 ? "axis zero" : "axis" }));
      svg.append(s("text", { x: LEFT - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, num(t)));
    }
    svg.append(s("text", { x: LEFT, y: H - 6, class: "tick" }, "start"));
    svg.append(s("text", { x: W - RIGHT, y: H - 6, "text-anchor": "end", class: "tick" }, `step ${lastStep}`));
    const lines = series.map((points, seat) => {
      let d = "";
      points.forEach(([step, v], i) => {
        d += i === 0 ? `M${x(step).toFixed(1)},${y(v).toFixed(1)}` : `H${x(step).toFixed(1)}V${y(v).toFixed(1)}`;
      });
      if (points.length) d += `H${x(lastStep).toFixed(1)}`;
      const path = s("path", { d, fill: "none", stroke: seatColour(seat), "stroke-width": 2, class: "series", "data-seat": seat });
      svg.append(path);
      return path;
    });
    const cursor = s("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM, class: "cursor" });
    svg.append(cursor);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const px = ((e.clientX - box.left) / box.width) * W;
      const step = Math.round(((px - LEFT) / (W - LEFT - RIGHT)) * span);
      onPick(Math.max(0, Math.min(lastStep, step)));
    });
    return {
      el: svg,
      setCursor(step) {
        cursor.setAttribute("x1", x(step));
        cursor.setAttribute("x2", x(step));
      },
      highlight(seat) {
        lines.forEach((line, i) => line.setAttribute("stroke-width", seat === null || seat === i ? 2 : 1));
        lines.forEach((line, i) => line.setAttribute("opacity", seat === null || seat === i ? 1 : 0.35));
      },
    };
  }

  return { scores, ticks };
})();
