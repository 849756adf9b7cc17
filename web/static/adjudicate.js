// The adjudication page's keyboard and sentence focus. Decisions are sent
// by htmx (or as plain forms without JavaScript); this file only moves
// between sentences and fills the focused card's form.
(function () {
  "use strict";

  var root = document.getElementById("adjudication");
  if (!root) {
    return;
  }
  var picks = Array.prototype.slice.call(root.querySelectorAll(".sentence-pick"));
  var current = 0;

  // Cards are replaced when a decision comes back, so look them up anew.
  function cards() { return Array.prototype.slice.call(root.querySelectorAll(".adj-card")); }
  function card() { return cards()[current]; }

  function focusSentence(i, moveFocus) {
    var cs = cards();
    if (i < 0 || i >= cs.length) { return; }
    current = i;
    cs.forEach(function (c, k) { c.hidden = k !== i; });
    picks.forEach(function (p, k) {
      p.classList.toggle("current", k === i);
      p.setAttribute("aria-current", k === i ? "true" : "false");
    });
    if (moveFocus) {
      var first = cs[i].querySelector("input[name=label]:checked") || cs[i].querySelector("input[name=label]");
      if (first) { first.focus({ preventScroll: true }); }
    }
    picks[i].scrollIntoView({ block: "nearest" });
  }
  picks.forEach(function (p, i) {
    p.addEventListener("click", function () { focusSentence(i, true); });
  });

  // The queue links to a sentence as #s-<id>.
  var start = 0;
  var m = /^#s-(\d+)$/.exec(window.location.hash);
  if (m) {
    cards().forEach(function (c, k) { if (c.id === "card-" + m[1]) { start = k; } });
  }
  focusSentence(start, false);
  // After the browser has scrolled to the link's #s-<id> itself.
  window.addEventListener("load", function () { window.requestAnimationFrame(formInView); });

  // formInView scrolls the window, when the page opens on a sentence, so
  // that its gold form, from its first field to its save button, is in
  // view: "s" must never save a decision the lead cannot see.
  function formInView() {
    var form = card() && card().querySelector(".gold-form");
    if (!form) { return; }
    var r = form.getBoundingClientRect();
    if (r.bottom > window.innerHeight) {
      window.scrollBy(0, Math.min(r.bottom - window.innerHeight + 12, Math.max(r.top - 8, 0)));
    }
  }

  document.body.addEventListener("htmx:afterSwap", function () { focusSentence(current, false); });

  function setRadio(name, value) {
    var input = card().querySelector("input[name=" + name + "][value=" + value + "]");
    if (!input || input.disabled) { return null; }
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return input;
  }

  function choose(value) {
    var input = setRadio("label", value);
    if (input) { input.focus({ preventScroll: true }); }
  }

  function toggleAmbiguity() {
    var yes = card().querySelector("input[name=ambiguous][value=yes]");
    if (!yes) { return; }
    var input = setRadio("ambiguous", yes.checked ? "no" : "yes");
    if (input) { input.focus({ preventScroll: true }); }
  }

  function toggleErrorType(n) {
    var box = card().querySelector("input[name=error_types][data-digit='" + n + "']");
    if (!box || box.disabled || box.offsetParent === null) { return; }
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // useSuggestion fills the form with the most frequent values.
  function useSuggestion(btn) {
    var c = card();
    if (!btn) { btn = c.querySelector("[data-action=suggest]"); }
    if (!btn) { return; }
    if (btn.dataset.label) { setRadio("label", btn.dataset.label); }
    var types = btn.dataset.types ? btn.dataset.types.split(",") : [];
    c.querySelectorAll("input[name=error_types]").forEach(function (b) { b.checked = types.indexOf(b.value) >= 0; });
    if (btn.dataset.ambiguous) { setRadio("ambiguous", btn.dataset.ambiguous); }
    var sel = c.querySelector("select[name=ambiguity_type]");
    if (sel) { sel.value = btn.dataset.ambiguityType || ""; }
    var label = c.querySelector("input[name=label]:checked");
    if (label) { label.focus({ preventScroll: true }); }
  }

  function save() {
    var form = card().querySelector(".gold-form");
    if (form) { form.requestSubmit(); }
  }

  function focusField(role) {
    var el = card().querySelector("textarea[data-role=" + role + "]");
    if (el && !el.disabled && el.offsetParent !== null) { el.focus(); return true; }
    return false;
  }

  function showUnit(n) {
    var u = document.getElementById("u-" + n);
    if (!u) { return; }
    root.querySelectorAll(".unit.cited").forEach(function (x) { x.classList.remove("cited"); });
    u.classList.add("cited");
    u.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  root.addEventListener("click", function (e) {
    var chip = e.target.closest(".chip");
    if (chip) { showUnit(chip.dataset.unit); }
    var sug = e.target.closest("[data-action=suggest]");
    if (sug) { useSuggestion(sug); }
  });

  function typing(el) {
    return el && (el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && ["text", "search", "number", "password"].indexOf(el.type) >= 0));
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
      return;
    }
    if (e.key === "Escape") {
      if (typing(document.activeElement)) {
        document.activeElement.blur();
        picks[current].focus({ preventScroll: true });
      }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) { return; }
    var handled = true;
    switch (e.key) {
      case "j": case "ArrowDown": focusSentence(current + 1, true); break;
      case "k": case "ArrowUp": focusSentence(current - 1, true); break;
      case "f": choose("faithful"); break;
      case "u": choose("unfaithful"); break;
      case "b": choose("borderline"); break;
      case "a": toggleAmbiguity(); break;
      case "m": useSuggestion(null); break;
      case "e": handled = focusField("explanation"); break;
      case "n": handled = focusField("note"); break;
      case "s": save(); break;
      case "?":
        var keys = document.getElementById("adj-keys");
        if (keys) { keys.focus(); keys.scrollIntoView({ block: "center" }); }
        break;
      default:
        if (/^[1-9]$/.test(e.key)) { toggleErrorType(e.key); } else { handled = false; }
    }
    if (handled) { e.preventDefault(); }
  });
})();
