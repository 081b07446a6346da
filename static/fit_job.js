// A fit job's page (issue 36.2): while the job runs, ask its state (GET /fit/jobs/<id>.json) every
// two seconds and show it; when it ends, reload, so the page shows the kept result from the store.
// No inline script (CSP); every word comes from the page itself.
(function () {
  "use strict";
  var box = document.getElementById("fit-job");
  if (!box || box.dataset.final === "true" || !window.fetch) { return; }
  var url = box.dataset.poll;

  function set(name, text) {
    var node = box.querySelector('[data-field="' + name + '"]');
    if (node) { node.textContent = String(text); }
  }

  // the numbers of a worded text, in their order, put in place of those it shows
  function numbers(selector, values) {
    var node = box.querySelector(selector);
    if (!node) { return; }
    var n = 0;
    node.textContent = node.textContent.replace(/[0-9]+/g, function (old) {
      n += 1;
      return n <= values.length ? String(values[n - 1]) : old;
    });
    node.hidden = false;
  }

  function tick() {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (job) {
        if (!job) { window.setTimeout(tick, 5000); return; }
        if (job.final || job.status !== box.dataset.status || job.phase !== box.dataset.phase) { window.location.reload(); return; }
        set("records_done", job.records_done);
        set("records_total", job.records_total);
        set("values_weighed", job.values_weighed);
        var fit = job.fit;
        var words = box.querySelector(".fit-progress");
        if (fit && words) {
          var said = JSON.parse(words.dataset.words || "{}");
          set("fit_phase", said[fit.phase] || fit.phase);
          box.querySelector('[data-field="fit_phase"]').dataset.fitPhase = fit.phase;
          set("fit_taken", fit.taken);
          numbers(".of-estimate", [fit.values_weighed, fit.values_estimate]);
          if (fit.pieces > 1) { numbers(".fit-piece", [fit.piece, fit.pieces]); }
          if (fit.phase === "verifying") { numbers(".verified", [fit.records_done, fit.records]); }
        }
        set("updated_at", job.updated_shown);
        box.querySelector('[data-field="updated_at"]').setAttribute("datetime", job.updated_at);
        var left = box.querySelector('[data-field="seconds_left"]');
        if (left && job.seconds_left !== null) {
          left.textContent = left.textContent.replace(/[0-9]+/, String(Math.round(job.seconds_left)));
        }
        window.setTimeout(tick, 2000);
      })
      .catch(function () { window.setTimeout(tick, 5000); });
  }
  window.setTimeout(tick, 2000);
}());
