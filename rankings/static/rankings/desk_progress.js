// The staff desk's recompute progress (/bureau/classement/): polls the run's JSON every
// 1.5 s and updates the bar and its figures; reloads the page once the run has ended
// (the history then shows it). No inline script: the CSP allows this file only.
(function () {
  "use strict";
  var box = document.querySelector("[data-progress-url]");
  if (!box) { return; }
  var url = box.getAttribute("data-progress-url");
  function show(name, value) {
    var el = box.querySelector("[data-field='" + name + "']");
    if (el) { el.textContent = value; }
  }
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (run) {
        if (!run) { return; }
        var bar = box.querySelector("progress");
        if (bar) { bar.max = run.total || 1; bar.value = run.done; }
        show("phase", run.phase);
        show("done", run.done);
        show("total", run.total);
        show("players", run.players);
        show("elapsed", run.elapsed_s);
        if (run.finished) { window.location.reload(); } else { window.setTimeout(poll, 1500); }
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 1500);
})();
