// The board: fetches its table again every few seconds from its own server and puts it in
// place, without a reload. The markup comes from the server's templates (every participant's
// string escaped there), and the page's Content-Security-Policy runs no script it holds.
"use strict";
(function () {
  const board = document.getElementById("board");
  if (!board) return;
  const every = Math.max(1, Number(board.dataset.every) || 5) * 1000;
  const updated = document.getElementById("updated");
  let refreshes = 0;
  async function refresh() {
    try {
      const answer = await fetch("/board/rows", { cache: "no-store", credentials: "same-origin" });
      if (answer.ok) {
        const template = document.createElement("template");
        template.innerHTML = await answer.text();
        board.replaceChildren(template.content);
        refreshes += 1;
        board.dataset.refreshes = String(refreshes);
        if (updated) updated.textContent = "Last updated " + new Date().toLocaleTimeString() + ".";
      } else if (updated) {
        updated.textContent = "The server answered " + answer.status + "; trying again.";
      }
    } catch (error) {
      if (updated) updated.textContent = "The server cannot be reached; trying again.";
    }
    setTimeout(refresh, every);
  }
  setTimeout(refresh, every);
})();
