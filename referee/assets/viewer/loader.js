"use strict";
// The loader of a report's replay page (viewer.js, beside the pages): it puts the viewer's
// markup (Referee.skeleton, the program's own) in the page when the page has none; the page's
// log block is its JSON compressed with gzip and written in base64 (type application/gzip+base64); the
// browser's DecompressionStream decodes it into the block, where the player reads it, and the
// player starts. A page whose block is plain JSON starts the player at once.
(() => {
  if (!document.getElementById("main")) {
    document.body.insertAdjacentHTML("afterbegin", Referee.skeleton);
  }
  const block = document.getElementById("match-log");
  if (block.type !== "application/gzip+base64") {
    Referee.startPlayer();
    return;
  }
  const bytes = Uint8Array.from(atob(block.textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream)
    .text()
    .then((json) => {
      block.textContent = json;
      Referee.startPlayer();
    })
    .catch((error) => {
      const title = document.getElementById("title");
      title.textContent = `This page's log could not be decoded (${error}); the browser needs DecompressionStream.`;
    });
})();
