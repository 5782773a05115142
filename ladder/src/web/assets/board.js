// The pages' live parts: each element with `data-live` (a URL of this server) fetches its
// content again every `data-every` seconds and puts it in place, without a reload (the board's
// table, a version's build and first matches). The markup comes from the server's templates
// (every participant's string escaped there), and the pages' Content-Security-Policy runs no
// script it holds. A fragment marked `data-final` is the last: its element stops asking.
"use strict";
(function () {
  for (const live of document.querySelectorAll("[data-live]")) {
    const every = Math.max(1, Number(live.dataset.every) || 5) * 1000;
    const updated = live.dataset.updated ? document.getElementById(live.dataset.updated) : null;
    let refreshes = 0;
    async function refresh() {
      try {
        const answer = await fetch(live.dataset.live, { cache: "no-store", credentials: "same-origin" });
        if (answer.ok) {
          const template = document.createElement("template");
          template.innerHTML = await answer.text();
          const final = template.content.querySelector("[data-final]");
          live.replaceChildren(template.content);
          refreshes += 1;
          live.dataset.refreshes = String(refreshes);
          if (updated) updated.textContent = "Last updated " + new Date().toLocaleTimeString() + ".";
          if (final) return;
        } else if (updated) {
          updated.textContent = "The server answered " + answer.status + "; trying again.";
        }
      } catch (error) {
        if (updated) updated.textContent = "The server cannot be reached; trying again.";
      }
      setTimeout(refresh, every);
    }
    if (!live.querySelector("[data-final]")) setTimeout(refresh, every);
  }
})();
