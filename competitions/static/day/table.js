// The table's score-entry page (day/table.html). Each deal recorded is kept in this
// phone's localStorage until the server acknowledges it, then sent again, in order,
// whenever the network returns (the online event, and a retry every few seconds): the
// server keeps a deal once, so sending it twice is harmless. No framework, no CDN.
(function () {
  "use strict";
  var root = document.getElementById("table-entry");
  if (!root) return;
  var form = document.getElementById("deal-form");
  var list = document.getElementById("deal-list");
  var network = document.getElementById("network");
  var errorsBox = document.getElementById("form-errors");
  var d = root.dataset;
  var dealCount = parseInt(d.deals, 10);
  var storeKey = d.store;
  var sending = false;
  var retry = null;

  function load() {
    try {
      var saved = JSON.parse(localStorage.getItem(storeKey) || "{}");
      return {pending: saved.pending || [], kept: saved.kept || {}, refused: saved.refused || {}};
    } catch (e) {
      return {pending: [], kept: {}, refused: {}};
    }
  }
  // The marks of a kept deal in the table's seat order, each by its French letter (W is O).
  var seats = d.seats.split(",");
  var letters = {};
  d.letters.split(",").forEach(function (letter, i) { letters[seats[i]] = letter; });
  var state = load();
  d.kept.split(",").forEach(function (n) { if (n) state.kept[n] = state.kept[n] || true; });

  function save() { localStorage.setItem(storeKey, JSON.stringify(state)); }

  function key() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function text(tag, content, cls) {
    var node = document.createElement(tag);
    node.textContent = content;
    if (cls) node.className = cls;
    return node;
  }

  function render() {
    list.textContent = "";
    for (var n = 1; n <= dealCount; n++) {
      var waiting = state.pending.filter(function (p) { return p.deal === n; })[0];
      var label = d.tDeal + " " + n + " · ";
      if (waiting) list.appendChild(text("li", label + d.tPending, "pending"));
      else if (state.refused[n]) list.appendChild(text("li", label + d.tRefused + " : " + state.refused[n], "refused"));
      else if (state.kept[n]) {
        var kept = state.kept[n];
        var marks = kept === true ? "" : " (" + seats.filter(function (s) { return s in kept; }).map(function (s) {
          var m = kept[s];
          return letters[s] + " " + (m > 0 ? "+" + m : m < 0 ? "\u2212" + (-m) : "0");
        }).join(", ") + ")";
        list.appendChild(text("li", label + d.tKept + marks, "kept"));
      }
      var chip = form && form.querySelector('input[name="deal"][value="' + n + '"]');
      if (chip) chip.parentNode.classList.toggle("done", !!(state.kept[n] || waiting));
    }
    if (!navigator.onLine) network.textContent = d.tOffline;
    else if (state.pending.length) network.textContent = state.pending.length + " " + d.tPending;
    else network.textContent = "";
  }

  function showTotals(totals) {
    Object.keys(totals || {}).forEach(function (seat) {
      var cell = root.querySelector('[data-total="' + seat + '"]');
      if (cell) cell.textContent = totals[seat];
    });
  }

  function nextDeal() {
    for (var n = 1; n <= dealCount; n++) {
      var waiting = state.pending.some(function (p) { return p.deal === n; });
      if (!state.kept[n] && !waiting) return n;
    }
    return null;
  }

  function resetForm() {
    if (!form) return;
    var mort = form.querySelector('input[name="sitting_out"]:checked');
    form.reset();
    form.classList.remove("passed");
    var n = nextDeal();
    var chip = n && form.querySelector('input[name="deal"][value="' + n + '"]');
    if (chip) chip.checked = true;
    if (mort) mort.checked = false;
  }

  function scheduleRetry() {
    if (retry) return;
    retry = setTimeout(function () { retry = null; flush(); }, 3000);
  }

  function flush() {
    if (sending || !state.pending.length) { render(); return; }
    if (!navigator.onLine) { render(); scheduleRetry(); return; }
    sending = true;
    var item = state.pending[0];
    network.textContent = d.tSending;
    fetch(d.dealsUrl, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify(item),
      credentials: "omit"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        sending = false;
        if (response.ok) {
          state.pending.shift();
          state.kept[item.deal] = body.marks || true;
          delete state.refused[item.deal];
          showTotals(body.totals);
        } else if (response.status === 429 || response.status >= 500) {
          save(); render(); scheduleRetry(); return;
        } else {
          state.pending.shift();
          var messages = (body.errors || []).map(function (e) { return e.message; });
          state.refused[item.deal] = messages.join(" ");
          if (errorsBox) {
            errorsBox.textContent = "";
            var prefix = d.tDeal + " " + item.deal;
            messages.forEach(function (m) {
              // most refusals already name their deal: one prefix, never two
              errorsBox.appendChild(text("p", m.indexOf(d.tDeal + " ") === 0 ? m : prefix + "\u202f: " + m));
            });
          }
          // the picker stays on the refused deal, to enter it again
          var chip = form && form.querySelector('input[name="deal"][value="' + item.deal + '"]');
          if (chip) chip.checked = true;
        }
        save(); render(); flush();
      });
    }).catch(function () {
      sending = false;
      save(); render(); scheduleRetry();
    });
  }

  function value(name) {
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    if (checked) return checked.value;
    var field = form.querySelector('input[name="' + name + '"]:not([type="radio"]):not([type="checkbox"])');
    return field ? field.value.trim() : "";
  }

  function lineOf() {
    var line = {};
    var mort = value("sitting_out");
    if (mort) line.sitting_out = mort;
    var contract = value("contract");
    if (contract === "passe") { line.contract = null; return line; }
    line.contract = contract;
    line.taker = value("taker") || null;
    var oudlers = value("oudlers");
    line.oudlers = oudlers === "" ? null : parseInt(oudlers, 10);
    var points = value("attack_points").replace(",", ".");
    line.attack_points = points === "" ? null : Number(points);
    if (value("petit_au_bout")) line.petit_au_bout = value("petit_au_bout");
    var shower = value("poignee_seat");
    var trumps = value("poignee_trumps");
    if (shower && trumps) line.poignees = [{seat: shower, trumps: parseInt(trumps, 10)}];
    if (form.querySelector('input[name="chelem_announced"]:checked')) line.chelem_announced = true;
    if (value("chelem_made_by")) line.chelem_made_by = value("chelem_made_by");
    return line;
  }

  if (form) {
    form.addEventListener("change", function () {
      form.classList.toggle("passed", value("contract") === "passe");
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      errorsBox.textContent = "";
      var deal = parseInt(value("deal"), 10);
      var contract = value("contract");
      if (!deal || !contract || (contract !== "passe" && (!value("taker") || value("oudlers") === "" || value("attack_points") === ""))) {
        errorsBox.appendChild(text("p", d.tChoose));
        return;
      }
      if (d.size === "5" && !value("sitting_out")) {
        errorsBox.appendChild(text("p", d.tMort));
        return;
      }
      state.pending = state.pending.filter(function (p) { return p.deal !== deal; });
      state.pending.push({deal: deal, line: lineOf(), client_key: key()});
      delete state.refused[deal];
      save();
      resetForm();
      render();
      flush();
    });
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  resetForm();
  render();
  flush();
  if (navigator.onLine) {
    fetch(d.sheetUrl, {headers: {"Accept": "application/json"}, credentials: "omit"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (sheet) {
        if (!sheet) return;
        (sheet.deals || []).forEach(function (deal) { state.kept[deal.deal] = deal.marks; });
        showTotals(sheet.totals);
        save(); render();
        var chosen = form && form.querySelector('input[name="deal"]:checked');
        if (form && (!chosen || state.kept[chosen.value])) resetForm();
      }).catch(function () {});
  }
})();
