/* The replay viewer of the report (templates/report/steps.html), in the manner of Tenhou's
   replayer and lichess's analysis board: one table at a time, the event list beside it.
   Keys: ← → step, Home / End first and last, n / p next and previous finding.
   Every step is #step-N: the address shows the step, and a link to it opens it.
   Without this script the page shows every step; the CSP allows only our own files. */
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
    if ((name === "first" || name === "last") && !viewer.contains(document.activeElement)) { return; }
    if (name) { event.preventDefault(); actions[name](); }
  });
  window.addEventListener("hashchange", function () {
    if (fromHash()) { viewer.scrollIntoView({block: "start"}); }
  });
  if (!fromHash()) {
    var flagged = rows.findIndex(function (row) { return row.hasAttribute("data-finding"); });
    show(flagged >= 0 ? flagged : 0, false);
  } else {
    viewer.scrollIntoView({block: "start"});
  }
}());
