// Upload page: drop or choose many files, then Send: each file goes to POST /api/records with
// a progress bar, then an "auditing" phase while the server audits, then one line per hand and
// a totals line. No inline script (CSP); every
// visible string comes translated from the form's data- attributes.
(function () {
  "use strict";
  var form = document.getElementById("upload-form");
  if (!form || !window.FormData || !window.XMLHttpRequest) { return; }
  var zone = document.getElementById("drop-zone");
  var input = document.getElementById("files");
  var uploaderInput = document.getElementById("uploader");
  var output = document.getElementById("upload-results");
  var data = form.dataset;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function label(prefix, code) {
    var key = prefix + code.charAt(0).toUpperCase() + code.slice(1);
    return data[key] || code;
  }

  function reportUrl(id) {
    return data.report.replace(/0$/, String(id));
  }

  function showResult(list, result) {
    var item = el("li", "result result-" + result.status);
    item.appendChild(el("span", "source", result.source));
    item.appendChild(el("span", "status", label("status", result.status)));
    if (result.record_id) {
      var number = el("a", "record-number", fill(data.msgRecord, {id: result.record_id}));
      number.href = reportUrl(result.record_id) + "#cases";
      item.appendChild(number);
      item.appendChild(document.createTextNode(" "));
      var link = el("a", null, result.game_id);
      link.href = reportUrl(result.record_id);
      item.appendChild(link);
      item.appendChild(el("span", "revision", " r" + result.revision + " "));
      item.appendChild(el("span", "verdict verdict-" + result.verdict, label("verdict", result.verdict)));
    }
    if (result.errors && result.errors.length) {
      var errors = el("ul", "errors");
      result.errors.forEach(function (error) {
        var line = el("li");
        line.appendChild(el("code", null, error.code));
        line.appendChild(document.createTextNode(" " + error.message));
        errors.appendChild(line);
      });
      item.appendChild(errors);
    }
    list.appendChild(item);
  }

  function failure(list, file, message) {
    showResult(list, {source: file.name, status: "failed", errors: [{code: "http", message: message}]});
    count({status: "failed"});
  }

  // The totals line counts as web/uploads.py totals() does: a hand stored without an audit
  // (the engine failed) is failed, a duplicate is never counted as saved.
  var totals = null;
  var totalsLine = null;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return values[name] !== undefined ? String(values[name]) : whole;
    });
  }

  function count(result) {
    var status = result.status;
    if ((status === "created" || status === "revision") && !result.verdict) { status = "failed"; }
    if (totals[status] === undefined) { status = "rejected"; }
    totals[status] += 1;
    var text = fill(data.msgTotals, totals);
    if (totals.skipped) { text += " · " + fill(data.msgSkipped, totals); }
    totalsLine.textContent = text;
  }

  function send(file, list) {
    return new Promise(function (resolve) {
      var row = el("li", "result");
      row.appendChild(el("span", "source", file.name));
      row.appendChild(el("span", "status", data.msgUploading));
      var bar = el("progress");
      bar.max = 100;
      bar.value = 0;
      row.appendChild(bar);
      list.appendChild(row);
      var body = new FormData();
      body.append("files", file, file.name);
      if (uploaderInput && uploaderInput.value) { body.append("uploader", uploaderInput.value); }
      var xhr = new XMLHttpRequest();
      xhr.open("POST", data.api);
      xhr.setRequestHeader("Accept", "application/json");
      var csrf = document.querySelector('meta[name="csrf-token"]');
      if (csrf) { xhr.setRequestHeader("X-CSRF-Token", csrf.content); }
      var phase = row.querySelector(".status");
      xhr.upload.onprogress = function (event) {
        if (event.lengthComputable) { bar.value = Math.round(100 * event.loaded / event.total); }
      };
      xhr.upload.onload = function () {
        // Every byte is sent; the server now audits before it answers.
        bar.removeAttribute("value");
        phase.textContent = data.msgAuditing;
        row.classList.add("auditing");
      };
      xhr.onload = function () {
        list.removeChild(row);
        var answer = null;
        try { answer = JSON.parse(xhr.responseText); } catch (ignored) { answer = null; }
        if (answer && answer.results) {
          answer.results.forEach(function (result) { showResult(list, result); count(result); });
        } else {
          failure(list, file, data.msgFailed + " (" + xhr.status + ")" + (answer && answer.message ? ": " + answer.message : ""));
        }
        resolve();
      };
      xhr.onerror = function () {
        list.removeChild(row);
        failure(list, file, data.msgNetwork);
        resolve();
      };
      xhr.send(body);
    });
  }

  function uploadAll(files) {
    if (!files.length) {
      output.replaceChildren(el("p", "empty", data.msgNone));
      return;
    }
    var list = el("ol", "results");
    totals = {created: 0, revision: 0, duplicate: 0, rejected: 0, skipped: 0, failed: 0};
    totalsLine = el("p", "upload-totals");
    totalsLine.id = "upload-totals";
    totalsLine.textContent = fill(data.msgTotals, totals);
    output.replaceChildren(totalsLine, list);
    // One file at a time keeps the server's write lock short and the order readable.
    files.reduce(function (chain, file) {
      return chain.then(function () { return send(file, list); });
    }, Promise.resolve());
  }

  // Choosing (or dropping) files only selects them; Send uploads. `chosen` holds the selection,
  // so a drop and a choice work alike and Send after a finished upload says nothing is chosen.
  var chosen = [];
  var chosenLine = document.getElementById("chosen");

  function choose(files) {
    chosen = files;
    if (chosenLine) { chosenLine.textContent = files.length ? fill(data.msgChosen, {count: files.length}) : ""; }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var files = chosen;
    choose([]);
    input.value = "";
    uploadAll(files);
  });
  input.addEventListener("change", function () {
    choose(Array.prototype.slice.call(input.files));
  });
  ["dragenter", "dragover"].forEach(function (name) {
    zone.addEventListener(name, function (event) {
      event.preventDefault();
      zone.classList.add("dragging");
    });
  });
  ["dragleave", "drop"].forEach(function (name) {
    zone.addEventListener(name, function (event) {
      event.preventDefault();
      zone.classList.remove("dragging");
    });
  });
  zone.addEventListener("drop", function (event) {
    choose(Array.prototype.slice.call(event.dataTransfer.files));
  });
}());
