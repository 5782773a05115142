"use strict";
// The replay viewer's DOM helpers. Every text from the log (names, stderr, messages, cards) goes
// onto the page through textContent or setAttribute, never as markup: h() and s() take text
// children as text nodes.
const Referee = (globalThis.Referee = globalThis.Referee || { games: {} });

Referee.dom = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  function fill(el, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") el.textContent = String(value);
      else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  /** An HTML element: h("p", {class: "x"}, "text", child...). */
  const h = (tag, attrs, ...children) => fill(document.createElement(tag), attrs, children);
  /** An SVG element. */
  const s = (tag, attrs, ...children) => fill(document.createElementNS(SVG, tag), attrs, children);

  /** The CSS class of a seat's colour (12 colours, then they repeat). */
  const seatClass = (seat) => `seat-c${seat % 12}`;

  /** A seat's colour, for SVG fills (the same as the CSS classes). */
  const SEAT_COLOURS = [
    "#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#76b7b2",
    "#edc948", "#ff9da7", "#9c755f", "#3d9970", "#8e6bd1", "#7f7f7f",
  ];
  const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

  /** A small coloured label naming a seat: "2 alice". */
  function seatTag(seat, players) {
    const name = players && players[seat] ? players[seat].name : "";
    return h("span", { class: `seat-tag ${seatClass(seat)}`, "data-seat": seat, title: `seat ${seat}: ${name}` },
      h("span", { class: "dot" }), h("span", { class: "seat-name" }, `${seat} ${name}`));
  }

  /** A seat's colour and number only, its name on hover: for tight places. */
  function seatChip(seat, players) {
    const name = players && players[seat] ? players[seat].name : "";
    return h("span", { class: `seat-chip ${seatClass(seat)}`, "data-seat": seat, title: `seat ${seat}: ${name}` },
      h("span", { class: "dot" }), String(seat));
  }

  /** A number with thousands separators. */
  const num = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n));

  /** An element's children replaced. */
  const put = (el, ...children) => { el.replaceChildren(); fill(el, {}, children); return el; };

  return { h, s, seatClass, seatColour, seatTag, seatChip, num, put };
})();
