/* The replay viewer of the report (templates/report/steps.html), in the manner of Tenhou's
   replayer and lichess's analysis board: one table at a time, the event list beside it.
   Keys: ← → step, Home / End first and last, n / p next and previous finding.
   Every step is #step-N: the address shows the step, and a link to it opens it (so does ?step=N).
   The table view (templates/report/table.html) follows the same step: its panels are kept once
   in <template>s and each step names its panels (data-steps), so a step swaps panels.
   Without this script the page shows every step, and the table the step of ?step=N; the CSP
   allows only our own files. */
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  if (!viewer) { return; }
  var rows = Array.prototype.slice.call(viewer.querySelectorAll("tr.step"));
  var items = Array.prototype.slice.call(viewer.querySelectorAll(".event-list li"));
  if (!rows.length) { return; }
  var controls = viewer.querySelector(".viewer-controls");
  var slider = viewer.querySelector(".step-slider");
  var position = viewer.querySelector(".step-position");
  var keyOnly = viewer.querySelector("[data-filter=key]");
  var list = viewer.querySelector(".event-list");
  var current = -1;
  var prevFinding = controls.querySelector("[data-go=prev-finding]");
  var nextFinding = controls.querySelector("[data-go=next-finding]");
  var tableRoot = document.getElementById("table");
  var table = tableRoot ? tableView(tableRoot) : null;

  // The table view: panels by number from the <template>s, the wall, the acting seat, the
  // timeline, the step's findings, the win screen at the last step, the seat it is seen from.
  function tableView(root) {
    var data = JSON.parse(root.getAttribute("data-steps"));
    var panels = {};
    var found = {};
    Array.prototype.forEach.call(root.querySelectorAll("template[data-panel]"), function (t) {
      panels[t.getAttribute("data-panel")] = t;
    });
    Array.prototype.forEach.call(root.querySelectorAll("template[data-findings]"), function (t) {
      found[t.getAttribute("data-findings")] = t;
    });
    var slots = Array.prototype.slice.call(root.querySelectorAll(".seat-slot"));
    var ticks = Array.prototype.slice.call(root.querySelectorAll(".timeline li"));
    var wall = root.querySelector(".wall-count");
    var label = root.querySelector(".table-step");
    var findingsBox = root.querySelector(".step-findings");
    var shownPanels = slots.map(function () { return null; });
    var names = data.seats === 4 ? ["bottom", "right", "top", "left"] : ["bottom", "right", "left"];
    var at = -1;

    function link(pos) { return ticks[pos].querySelector("a").getAttribute("href"); }

    function show(pos) {
      var step = data.steps[pos];
      if (!step) { return; }
      slots.forEach(function (slot, seat) {
        if (shownPanels[seat] !== step.p[seat] || at < 0) {
          var old = slot.querySelector(".seat-panel");
          var fresh = panels[String(step.p[seat])].content.firstElementChild.cloneNode(true);
          if (old) { slot.replaceChild(fresh, old); } else { slot.appendChild(fresh); }
          shownPanels[seat] = step.p[seat];
        }
        slot.classList.toggle("acting", step.a === seat);
      });
      wall.textContent = String(step.w);
      root.classList.toggle("at-end", pos === data.last);
      if (at >= 0) { ticks[at].classList.remove("current"); }
      ticks[pos].classList.add("current");
      var tick = ticks[pos].querySelector("a");
      var n = tick.getAttribute("data-n") || "";
      label.querySelector(".n").textContent = n;
      label.querySelector(".words").textContent = (tick.getAttribute("title") || "").slice(n.length).trim();
      findingsBox.textContent = "";
      if (found[String(pos)]) { findingsBox.appendChild(found[String(pos)].content.cloneNode(true)); }
      var go = {first: 0, prev: Math.max(pos - 1, 0), next: Math.min(pos + 1, data.last), last: data.last};
      Object.keys(go).forEach(function (name) {
        root.querySelector(".table-controls a[data-go=" + name + "]").setAttribute("href", link(go[name]));
      });
      at = pos;
    }

    function seeFrom(seat) {
      slots.forEach(function (slot, s) {
        names.forEach(function (name) { slot.classList.remove("pos-" + name); });
        slot.classList.add("pos-" + names[(s - seat + data.seats) % data.seats]);
      });
      Array.prototype.forEach.call(root.querySelectorAll(".perspective a"), function (a) {
        if (Number(a.getAttribute("data-seat")) === seat) { a.setAttribute("aria-current", "true"); }
        else { a.removeAttribute("aria-current"); }
      });
      root.setAttribute("data-perspective", String(seat));
      Array.prototype.forEach.call(root.querySelectorAll(".timeline a, .table-controls a[data-go]"), function (a) {
        a.setAttribute("href", a.getAttribute("href").replace(/([?&])seat=\d+/, "$1seat=" + seat));
      });
      if (history.replaceState) {
        var params = new URLSearchParams(location.search);
        params.set("seat", String(seat));
        history.replaceState(null, "", "?" + params.toString() + location.hash);
      }
    }

    root.addEventListener("click", function (event) {
      var target = event.target.closest("a[data-go], a[data-pos], a[data-seat]");
      if (!target || !root.contains(target)) { return; }
      event.preventDefault();
      if (target.hasAttribute("data-go")) { actions[target.getAttribute("data-go")](); }
      else if (target.hasAttribute("data-pos")) { showAt(Number(target.getAttribute("data-pos"))); }
      else { seeFrom(Number(target.getAttribute("data-seat"))); }
    });
    return {show: show};
  }

  function showAt(i) { show(i, true); }

  function findingRowOf(row) {
    var next = row.nextElementSibling;
    return next && next.classList.contains("finding-row") ? next : null;
  }

  function allowed(i) {
    return !keyOnly.checked || rows[i].hasAttribute("data-key");
  }

  function show(i, write) {
    if (i < 0 || i >= rows.length) { return; }
    if (current >= 0) {
      rows[current].classList.remove("current");
      var old = findingRowOf(rows[current]);
      if (old) { old.classList.remove("current"); }
      items[current].classList.remove("current");
      items[current].removeAttribute("aria-current");
    }
    current = i;
    rows[i].classList.add("current");
    var detail = findingRowOf(rows[i]);
    if (detail) { detail.classList.add("current"); }
    items[i].classList.add("current");
    items[i].setAttribute("aria-current", "step");
    slider.value = String(i);
    position.textContent = rows[i].querySelector("th").textContent.trim() + " · " + (i + 1) + " / " + rows.length;
    var top = items[i].offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - items[i].offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
    if (write && history.replaceState) { history.replaceState(null, "", "#" + rows[i].id); }
    if (table) { table.show(i); }
    // a finding button that has nowhere to go says so (disabled), never silently does nothing
    prevFinding.disabled = !hasFinding(i, -1);
    nextFinding.disabled = !hasFinding(i, 1);
  }

  function hasFinding(from, delta) {
    for (var i = from + delta; i >= 0 && i < rows.length; i += delta) {
      if (isFinding(i)) { return true; }
    }
    return false;
  }

  function move(from, delta, test) {
    for (var i = from + delta; i >= 0 && i < rows.length; i += delta) {
      if (test(i)) { show(i, true); return true; }
    }
    return false;
  }

  function isFinding(i) { return rows[i].hasAttribute("data-finding"); }

  var actions = {
    first: function () { move(-1, 1, allowed); },
    last: function () { move(rows.length, -1, allowed); },
    prev: function () { move(current, -1, allowed); },
    next: function () { move(current, 1, allowed); },
    "prev-finding": function () { move(current, -1, isFinding); },
    "next-finding": function () { move(current, 1, isFinding); }
  };

  function fromHash() {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    var i = target ? rows.indexOf(target) : -1;
    if (i >= 0) { show(i, false); return true; }
    return false;
  }

  function fromQuery() {  // ?step=N (an event index, or "deal"): the table's links without script
    var step = new URLSearchParams(location.search).get("step");
    var target = step !== null ? document.getElementById("step-" + (step === "-1" ? "deal" : step)) : null;
    var i = target ? rows.indexOf(target) : -1;
    if (i >= 0) { show(i, false); return true; }
    return false;
  }

  viewer.classList.add("live");
  controls.hidden = false;
  controls.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-go]");
    if (button) { actions[button.getAttribute("data-go")](); }
  });
  slider.addEventListener("input", function () { show(Number(slider.value), true); });
  keyOnly.addEventListener("change", function () {
    viewer.classList.toggle("key-only", keyOnly.checked);
    if (!allowed(current) && !move(current, 1, allowed)) { move(current, -1, allowed); }
  });
  list.addEventListener("click", function (event) {
    var link = event.target.closest("a");
    if (!link) { return; }
    event.preventDefault();
    show(items.indexOf(link.parentElement), true);
  });
  document.addEventListener("keydown", function (event) {
    var tag = event.target.tagName;
    if (event.altKey || event.ctrlKey || event.metaKey || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      return;
    }
    var name = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", n: "next-finding",
                p: "prev-finding"}[event.key];
    var inside = viewer.contains(document.activeElement) || (tableRoot && tableRoot.contains(document.activeElement));
    if ((name === "first" || name === "last") && !inside) { return; }
    if (name) { event.preventDefault(); actions[name](); }
  });
  window.addEventListener("hashchange", function () {
    if (fromHash()) { viewer.scrollIntoView({block: "start"}); }
  });
  if (fromHash()) {
    viewer.scrollIntoView({block: "start"});
  } else if (!fromQuery()) {
    var flagged = rows.findIndex(function (row) { return row.hasAttribute("data-finding"); });
    show(flagged >= 0 ? flagged : 0, false);
  }
}());
