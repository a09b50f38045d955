// The journal page: the timeline (a marker that follows the scroll; click, drag and keys to
// jump), J/K between periods, "/" to search, search results as dots, and delete confirmations.
// Plain JavaScript, no build step; the page works without it (links and forms).
(function () {
  "use strict";
  var DAY = 86400000;

  // Deletions ask first; the server refuses a form that was not confirmed.
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (window.confirm(form.getAttribute("data-confirm"))) {
        form.querySelector("input[name=confirm]").value = "yes";
      } else {
        event.preventDefault();
      }
    });
  });

  var root = document.querySelector(".journal");
  if (!root) return;
  var timeline = document.getElementById("timeline");
  var marker = document.getElementById("marker");
  var label = document.getElementById("period-label");
  var ago = document.getElementById("period-ago");
  var periods = Array.prototype.slice.call(document.querySelectorAll("section.period"));
  var today = Date.parse(root.getAttribute("data-today"));
  var oldestAge = Math.max(1, Math.round((today - Date.parse(root.getAttribute("data-oldest"))) / DAY));
  var current = 0;

  function ageOf(date) { return Math.max(0, Math.round((today - Date.parse(date)) / DAY)); }

  // Stretched towards the present: the last fortnight gets as much room as everything before.
  function position(age) {
    if (oldestAge <= 14) return Math.min(1, age / oldestAge);
    if (age <= 14) return 0.5 * age / 14;
    return Math.min(1, 0.5 + 0.5 * (age - 14) / (oldestAge - 14));
  }
  function ageAt(fraction) {
    if (oldestAge <= 14) return fraction * oldestAge;
    if (fraction <= 0.5) return fraction / 0.5 * 14;
    return 14 + (fraction - 0.5) / 0.5 * (oldestAge - 14);
  }
  function agoText(age) {
    if (age === 0) return "today";
    if (age === 1) return "yesterday";
    if (age < 14) return age + " days ago";
    if (age < 60) return Math.round(age / 7) + " weeks ago";
    if (age < 730) return Math.round(age / 30) + " months ago";
    return Math.round(age / 365) + " years ago";
  }

  periods.forEach(function (p) {
    var tick = document.createElement("span");
    tick.className = "tick " + (p.classList.contains("day") ? "day" : "digest");
    tick.style.top = (position(ageOf(p.getAttribute("data-date"))) * 100) + "%";
    tick.setAttribute("aria-hidden", "true");
    timeline.appendChild(tick);
  });

  function show(index) {
    if (!periods.length) return;
    current = Math.max(0, Math.min(periods.length - 1, index));
    var p = periods[current];
    var age = ageOf(p.getAttribute("data-date"));
    marker.style.top = (position(age) * 100) + "%";
    label.textContent = p.getAttribute("data-label");
    ago.textContent = agoText(age);
    timeline.setAttribute("aria-valuenow", String(current));
    timeline.setAttribute("aria-valuetext", p.getAttribute("data-label") + ", " + agoText(age));
    root.setAttribute("data-current", p.id);
  }
  // After a jump the scroll it causes must not move the marker elsewhere (the oldest period
  // may never reach the top of the window).
  var jumpedAt = 0;
  function jump(index) {
    if (!periods.length) return;
    show(index);
    jumpedAt = Date.now();
    periods[current].scrollIntoView({ block: "start" });
  }
  function inView() {
    var best = 0;
    for (var i = 0; i < periods.length; i++) {
      if (periods[i].getBoundingClientRect().top <= 140) best = i; else break;
    }
    return best;
  }
  var pending = false;
  window.addEventListener("scroll", function () {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      if (Date.now() - jumpedAt > 500) show(inView());
    });
  });

  function nearest(age) {
    var best = 0, gap = Infinity;
    periods.forEach(function (p, i) {
      var d = Math.abs(ageOf(p.getAttribute("data-date")) - age);
      if (d < gap) { gap = d; best = i; }
    });
    return best;
  }
  function fromPointer(event) {
    var rect = timeline.getBoundingClientRect();
    var fraction = Math.max(0, Math.min(1, (event.clientY - rect.top) / rect.height));
    jump(nearest(ageAt(fraction)));
  }
  var dragging = false;
  timeline.addEventListener("pointerdown", function (event) {
    if (event.target.classList.contains("dot")) return;
    dragging = true;
    if (timeline.setPointerCapture) timeline.setPointerCapture(event.pointerId);
    timeline.focus();
    fromPointer(event);
  });
  timeline.addEventListener("pointermove", function (event) { if (dragging) fromPointer(event); });
  timeline.addEventListener("pointerup", function () { dragging = false; });
  timeline.addEventListener("keydown", function (event) {
    var keys = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, PageDown: 5, PageUp: -5 };
    if (event.key in keys) jump(current + keys[event.key]);
    else if (event.key === "Home") jump(0);
    else if (event.key === "End") jump(periods.length - 1);
    else return;
    event.preventDefault();
    event.stopPropagation();
  });

  var search = document.getElementById("search");
  var box = document.getElementById("q");
  var hits = document.getElementById("hits");
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "/") { event.preventDefault(); box.focus(); }
    else if (event.key === "j" || event.key === "J") { jump(current + 1); }
    else if (event.key === "k" || event.key === "K") { jump(current - 1); }
  });

  function goTo(hit) {
    var target = document.getElementById(hit.session_id || hit.id) || document.getElementById(hit.id);
    if (target) {
      jumpedAt = Date.now();
      target.scrollIntoView({ block: "center" });
      target.classList.add("flash");
      target.setAttribute("tabindex", "-1");
      target.focus();
      var section = target.closest("section.period");
      if (section) show(periods.indexOf(section));
    } else if (hit.session_id) {
      window.location.href = "/journal/sessions/" + hit.session_id;
    } else {
      window.location.href = "/journal#" + hit.id;
    }
  }
  search.addEventListener("submit", function (event) {
    event.preventDefault();
    var q = box.value.trim();
    timeline.querySelectorAll(".dot").forEach(function (d) { d.remove(); });
    hits.textContent = "";
    if (!q) return;
    fetch("/journal/search?q=" + encodeURIComponent(q), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (!answer.ok) { hits.textContent = answer.body.detail || "Search failed."; return; }
        var list = document.createElement("ol");
        answer.body.hits.forEach(function (hit) {
          var item = document.createElement("li");
          var button = document.createElement("button");
          button.type = "button";
          button.className = "hit";
          button.setAttribute("data-id", hit.id);
          button.textContent = hit.kind + " · " + hit.at.slice(0, 10) + " — " + hit.snippet;
          button.addEventListener("click", function () { goTo(hit); });
          item.appendChild(button);
          list.appendChild(item);
          var dot = document.createElement("button");
          dot.type = "button";
          dot.className = "dot";
          dot.title = hit.snippet;
          dot.setAttribute("aria-label", "Match: " + hit.snippet);
          dot.style.top = (position(ageOf(hit.at.slice(0, 10))) * 100) + "%";
          dot.addEventListener("click", function () { goTo(hit); });
          timeline.appendChild(dot);
        });
        var count = document.createElement("p");
        count.className = "count";
        count.textContent = answer.body.hits.length === 0 ? "Nothing matches in the last year." :
          answer.body.hits.length + (answer.body.hits.length === 1 ? " match" : " matches");
        hits.appendChild(count);
        hits.appendChild(list);
      })
      .catch(function () { hits.textContent = "Search failed."; });
  });

  var fromHash = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
  show(fromHash ? Math.max(0, periods.indexOf(fromHash.closest("section.period"))) : inView());
})();
