// The admin's list of recompute runs reloads itself every 3 s while a run is queued or
// running (its progress cell carries data-run-live), so the bar moves without a click.
(function () {
  "use strict";
  if (document.querySelector("[data-run-live]")) {
    window.setTimeout(function () { window.location.reload(); }, 3000);
  }
})();
