// Page behaviour that plain HTML cannot give: the labelling page's keyboard,
// sentence focus, save status and retries, document search, evidence
// chips and active-time tracking. Saving itself is done by htmx.
(function () {
  "use strict";

  // Let htmx process refused saves (conflict, invalid): their fragments say
  // why in the save status.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var status = e.detail.xhr.status;
    if (status === 409 || status === 422 || status === 403 || status === 404) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  var ws = document.getElementById("workspace");
  if (!ws) {
    return;
  }
  var readOnly = ws.dataset.readonly === "true";
  var unsent = 0; // active seconds counted and not yet reported (see below)
  var statusEl = function () { return document.getElementById("save-status"); };
  var cards = Array.prototype.slice.call(ws.querySelectorAll(".label-card"));
  var picks = Array.prototype.slice.call(ws.querySelectorAll(".sentence-pick"));
  var current = 0;

  function setStatus(text, kind) {
    var el = statusEl();
    if (!el) { return; }
    el.textContent = text;
    el.className = "ws-status " + (kind || "");
  }

  // Sentence focus: one label card is shown at a time, docked under its
  // sentence in the summary list, and brought into view with it.
  var dock = document.getElementById("card-dock");
  var items = picks.map(function (p) { return p.closest("li"); });
  var kfChips = Array.prototype.slice.call(ws.querySelectorAll(".kf-chip"));
  var head = ws.querySelector(".ws-head");
  // The sticky document pane starts below the sticky header, whose height
  // changes as it wraps.
  if (head && window.ResizeObserver) {
    new ResizeObserver(function () { ws.style.setProperty("--head", head.offsetHeight + "px"); }).observe(head);
  }
  function topInset() {
    if (!head || getComputedStyle(head).position !== "sticky") { return 8; }
    return Math.max(0, head.getBoundingClientRect().bottom) + 8;
  }
  // bringIntoView scrolls the least that shows el whole, or its top when
  // it is taller than the window.
  function bringIntoView(el) {
    var r = el.getBoundingClientRect();
    var top = topInset();
    var bottom = window.innerHeight - 8;
    if (r.top < top) {
      window.scrollBy(0, r.top - top);
    } else if (r.bottom > bottom) {
      window.scrollBy(0, Math.min(r.bottom - bottom, r.top - top));
    }
  }
  // engaged turns true at the annotator's first key or click; before it
  // the page does not scroll by itself (on a phone the document comes
  // first), except to resume at a later sentence.
  var engaged = false;
  ["keydown", "mousedown"].forEach(function (t) {
    document.addEventListener(t, function () { engaged = true; }, true);
  });
  function focusSentence(i, moveFocus) {
    if (i < 0 || i >= cards.length) { return; }
    current = i;
    cards.forEach(function (c, k) { c.hidden = k !== i; });
    picks.forEach(function (p, k) {
      p.classList.toggle("current", k === i);
      p.setAttribute("aria-current", k === i ? "true" : "false");
    });
    kfChips.forEach(function (c) { c.classList.toggle("is-current", c.dataset.sentenceIndex === String(i)); });
    if (dock && items[i] && dock.parentNode !== items[i]) { items[i].appendChild(dock); }
    if (moveFocus) {
      var first = cards[i].querySelector("input[name=label]:checked") || cards[i].querySelector("input[name=label]");
      if (first) { first.focus({ preventScroll: true }); }
    }
    if (items[i] && (engaged || i > 0)) { bringIntoView(items[i]); }
  }
  picks.forEach(function (p, i) {
    p.addEventListener("click", function () { focusSentence(i, true); });
  });
  // The card grows when a label asks for more (error types, explanation,
  // the assistant revealed): keep it in view.
  if (dock && window.ResizeObserver) {
    new ResizeObserver(function () { if (engaged && items[current]) { bringIntoView(items[current]); } }).observe(dock);
  }
  function isOpen(k) { return !!picks[k].querySelector(".mark-none, .mark-partial"); }
  // nextOpen focuses the next sentence (after the focused one, wrapping)
  // whose label is missing or incomplete.
  function nextOpen() {
    for (var d = 1; d <= picks.length; d++) {
      var k = (current + d) % picks.length;
      if (isOpen(k)) { focusSentence(k, true); return; }
    }
    setStatus("Every sentence has a complete label.", "saved");
  }
  // Start at the first sentence without a complete label.
  var firstOpen = picks.findIndex(function (p, k) { return isOpen(k); });
  focusSentence(firstOpen >= 0 ? firstOpen : 0, false);
  // After a refused submit the list of what is missing leads: bring it
  // into view (the first open sentence may be far down a long summary).
  var missing = document.querySelector("[data-testid=missing]");
  if (missing) {
    window.addEventListener("load", function () {
      window.requestAnimationFrame(function () { missing.scrollIntoView({ block: "start" }); });
    });
  }

  function card() { return cards[current]; }

  function choose(value) {
    var input = card().querySelector("input[name=label][value=" + value + "]");
    if (!input || input.disabled) { return; }
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    input.focus({ preventScroll: true });
  }

  // toggleAmbiguity answers the ambiguity question "no" when it is not
  // answered yet (most sentences are not ambiguous, and going through "yes"
  // would open its required fields), then flips between no and yes.
  function toggleAmbiguity() {
    var yes = card().querySelector("input[name=ambiguous][value=yes]");
    var no = card().querySelector("input[name=ambiguous][value=no]");
    if (!yes || yes.disabled) { return; }
    var target = no.checked ? yes : no;
    target.checked = true;
    target.dispatchEvent(new Event("change", { bubbles: true }));
    target.focus({ preventScroll: true });
  }

  // ambiguityTypeToFocus is where A (Shift+a) goes on an ambiguous
  // sentence: its ambiguity type, where a type's first letter or the
  // arrows choose and Esc comes back. Null when the sentence asks none.
  function ambiguityTypeToFocus() {
    var type = card().querySelector("select[name=ambiguity_type]");
    return type && !type.disabled && type.offsetParent !== null ? type : null;
  }

  function toggleErrorType(n) {
    var box = card().querySelector("input[name=error_types][data-digit='" + n + "']");
    if (!box || box.disabled || box.offsetParent === null) { return; }
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // focusGroup moves focus into a radio group of the summary card, where
  // the arrow keys and Space choose as usual.
  function focusGroup(name) {
    var r = ws.querySelector("input[name=" + name + "]:checked") || ws.querySelector("input[name=" + name + "]");
    if (r && !r.disabled) { r.focus(); r.scrollIntoView({ block: "center" }); }
  }

  // chooseInGroup picks, in a radio group of the summary card, the choice
  // whose value is the digit, else the digit's n-th choice.
  function chooseInGroup(name, digit) {
    var rs = Array.prototype.slice.call(ws.querySelectorAll("input[type=radio][name=" + name + "]"));
    var r = rs.filter(function (x) { return x.value === digit; })[0] || rs[Number(digit) - 1];
    if (!r || r.disabled) { return; }
    r.checked = true;
    r.focus();
    r.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // kfChipOf is the key-fact chip of sentence i in the fact-th key fact.
  function kfChipOf(i, fact) {
    var rows = ws.querySelectorAll(".kf-row");
    if (fact < 0 || fact >= rows.length) { return null; }
    var box = rows[fact].querySelector("input.kf-link[data-sentence-index='" + i + "']");
    return box && !box.disabled ? box : null;
  }

  // moveAlongFacts focuses the same sentence's chip in the next (step 1)
  // or previous (step -1) key fact.
  function moveAlongFacts(box, step) {
    var rows = Array.prototype.slice.call(ws.querySelectorAll(".kf-row"));
    var at = rows.indexOf(box.closest(".kf-row"));
    var next = kfChipOf(box.dataset.sentenceIndex, at + step);
    if (next) { next.focus(); next.scrollIntoView({ block: "nearest" }); }
  }

  // scaleToFocus is where s puts the focus (on the key's release, so that
  // its character does not choose a value): the focused sentence's first
  // rating, else the summary's first; the arrows or a value's first
  // character then choose. Null when there is none.
  function scaleToFocus() {
    var sel = card().querySelector("select[data-role=scale]") ||
      ws.querySelector("[data-testid=scales] select[data-role=scale]");
    return sel && !sel.disabled ? sel : null;
  }

  // Completeness and conciseness (MSumBench): the share of key facts some
  // sentence carries, and the share of sentences that carry some key fact.
  function updateScores() {
    var rows = ws.querySelectorAll(".kf-row");
    var out1 = document.getElementById("completeness");
    var out2 = document.getElementById("conciseness");
    if (!rows.length || !out1 || !out2) { return; }
    var covered = 0, carrying = {};
    rows.forEach(function (r) {
      var any = false;
      r.querySelectorAll(".kf-link").forEach(function (b) {
        if (b.checked) { any = true; carrying[b.dataset.sentenceIndex] = true; }
      });
      if (any) { covered++; }
    });
    var pct = function (a, b) { return b ? Math.round(100 * a / b) + "%" : "–"; };
    out1.textContent = pct(covered, rows.length) + " (" + covered + " of " + rows.length + " facts)";
    out2.textContent = pct(Object.keys(carrying).length, cards.length) + " (" + Object.keys(carrying).length + " of " + cards.length + " sentences)";
  }
  ws.addEventListener("change", function (e) {
    if (e.target.classList.contains("kf-link")) { updateScores(); }
  });
  updateScores();

  // Drawers: guidelines and the key list.
  var opener = null;
  function openDrawer(id) {
    closeDrawers();
    var d = document.getElementById(id);
    if (!d) { return; }
    opener = document.activeElement;
    d.hidden = false;
    d.focus();
  }
  function closeDrawers() {
    var open = false;
    ws.querySelectorAll(".drawer").forEach(function (d) {
      if (!d.hidden) { open = true; }
      d.hidden = true;
    });
    if (open && opener) { opener.focus({ preventScroll: true }); }
    return open;
  }
  ws.addEventListener("click", function (e) {
    var t = e.target.closest("[data-action]");
    if (t) {
      var a = t.dataset.action;
      if (a === "guidelines") { openDrawer("guidelines"); }
      if (a === "keys") { openDrawer("keys-help"); }
      if (a === "close") { closeDrawers(); }
      if (a === "reload") { location.reload(); }
      if (a === "undo") { undo(); }
    }
    var jump = e.target.closest("[data-jump]");
    if (jump) { focusSentence(parseInt(jump.dataset.jump, 10), false); }
    var chip = e.target.closest(".chip");
    if (chip) { showUnit(chip.dataset.unit); }
  });

  // Evidence chips scroll to a document unit and highlight it.
  function showUnit(n) {
    var u = document.getElementById("u-" + n);
    if (!u) { return; }
    ws.querySelectorAll(".unit.cited").forEach(function (x) { x.classList.remove("cited"); });
    u.classList.add("cited");
    u.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  // Document search: highlight matching units and count them.
  var search = document.getElementById("doc-search");
  var units = Array.prototype.slice.call(ws.querySelectorAll(".unit"));
  var matches = [];
  var matchAt = -1;
  if (search) {
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase();
      matches = [];
      matchAt = -1;
      units.forEach(function (u) {
        var hit = q.length > 1 && u.textContent.toLowerCase().indexOf(q) >= 0;
        u.classList.toggle("match", hit);
        if (hit) { matches.push(u); }
      });
      document.getElementById("doc-search-count").textContent = q.length > 1 ? matches.length + " found" : "";
    });
    search.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && matches.length) {
        e.preventDefault();
        matchAt = (matchAt + 1) % matches.length;
        matches[matchAt].scrollIntoView({ block: "center" });
      }
    });
  }

  function typing(el) {
    return el && (el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && ["text", "search", "number", "password"].indexOf(el.type) >= 0));
  }

  var focusOnRelease = null;
  document.addEventListener("keyup", function (e) {
    if (!focusOnRelease || e.key !== focusOnRelease.key) { return; }
    var ex = focusOnRelease.el;
    focusOnRelease = null;
    ex.focus({ preventScroll: true });
    if (ex.setSelectionRange) { ex.setSelectionRange(ex.value.length, ex.value.length); }
    ex.scrollIntoView({ block: "nearest" });
  });

  // Fields a label no longer calls for are cleared when the label changes
  // (an explanation and error types when it stops being unfaithful, the
  // ambiguity type and description when the sentence stops being
  // ambiguous), before htmx reads the form to save it; the card offers an
  // undo. This runs in the capture phase, ahead of htmx.
  var undoStash = {};
  document.addEventListener("change", function (e) {
    var t = e.target;
    var form = t.closest && t.closest(".label-form");
    if (!form || !ws.contains(form)) { return; }
    var cleared = [], restore = [];
    if (t.name === "label" && t.value !== "unfaithful") {
      var ex = form.querySelector("textarea[name=explanation]");
      var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=error_types]:checked"));
      if (ex && ex.value.trim() !== "") {
        cleared.push("the explanation");
        restore.push({ el: ex, value: ex.value });
        ex.value = "";
      }
      if (boxes.length) {
        cleared.push(boxes.length === 1 ? "1 error type" : boxes.length + " error types");
        boxes.forEach(function (b) { restore.push({ el: b, checked: true }); b.checked = false; });
      }
      if (restore.length) { restore.push({ el: form.querySelector("input[name=label][value=unfaithful]"), checked: true }); }
    }
    if (t.name === "ambiguous" && t.value === "no") {
      var ty = form.querySelector("select[name=ambiguity_type]");
      var note = form.querySelector("textarea[name=ambiguity_note]");
      if (ty && ty.value !== "") { cleared.push("the ambiguity type"); restore.push({ el: ty, value: ty.value }); ty.value = ""; }
      if (note && note.value.trim() !== "") { cleared.push("the ambiguity description"); restore.push({ el: note, value: note.value }); note.value = ""; }
      if (restore.length) { restore.push({ el: form.querySelector("input[name=ambiguous][value=yes]"), checked: true }); }
    }
    if (!restore.length) { return; }
    var c = form.closest(".label-card");
    undoStash[c.id] = { form: form.id, restore: restore };
    var bar = c.querySelector(".undo-bar");
    if (bar) {
      bar.querySelector("span").textContent = "Cleared " + cleared.join(" and ") + ": the new answer does not keep " + (cleared.length > 1 ? "them" : "it") + ".";
      bar.hidden = false;
    }
  }, true);

  // undo puts back what the last change on the focused card cleared and
  // saves it; false when there is nothing to undo.
  function undo() {
    var c = card();
    var st = undoStash[c.id];
    if (!st) { return false; }
    delete undoStash[c.id];
    var form = document.getElementById(st.form);
    st.restore.forEach(function (r) {
      if (!r.el || !form.contains(r.el)) { return; }
      if ("checked" in r) { r.el.checked = r.checked; } else { r.el.value = r.value; }
    });
    var bar = c.querySelector(".undo-bar");
    if (bar) { bar.hidden = true; }
    if (form) { form.dispatchEvent(new Event("change", { bubbles: true })); }
    return true;
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      var submit = document.getElementById("submit-button");
      if (submit) { e.preventDefault(); submitWhenSaved(submit.form); }
      return;
    }
    if (e.key === "Escape") {
      if (closeDrawers()) { return; }
      var el = document.activeElement;
      if (typing(el) || (el && el.closest && el.closest(".summary-form, .kf-chips"))) {
        el.blur();
        picks[current].focus({ preventScroll: true });
      }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) { return; }
    // In the summary's radio groups (after r or t) the arrows choose, as
    // in any radio group, and so does a digit: a relevance value, or the
    // n-th choice of another group.
    if (e.target.type === "radio" && e.target.closest(".summary-form")) {
      if (/^Arrow/.test(e.key)) { return; }
      if (/^[1-9]$/.test(e.key)) {
        e.preventDefault();
        chooseInGroup(e.target.name, e.key);
        return;
      }
    }
    // On a key-fact chip (after c) the arrows and j / k move to the same
    // sentence's chip of the next or previous fact; Space ticks it.
    if (e.target.classList && e.target.classList.contains("kf-link")) {
      var step = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 }[e.key];
      if (step) {
        e.preventDefault();
        moveAlongFacts(e.target, step);
        return;
      }
    }
    var handled = true;
    switch (e.key) {
      case "j": case "ArrowDown": focusSentence(current + 1, true); break;
      case "n": nextOpen(); break;
      case "k": case "ArrowUp": focusSentence(current - 1, true); break;
      case "f": choose("faithful"); break;
      case "u": choose("unfaithful"); break;
      case "b": choose("borderline"); break;
      case "a": toggleAmbiguity(); break;
      case "e":
        // Focus on key release, so the key's own character is not typed
        // into the field; the cursor goes after the existing text.
        var ex = card().querySelector("textarea[data-role=explanation]");
        if (ex && !ex.disabled && ex.offsetParent !== null) { focusOnRelease = { key: "e", el: ex }; } else { handled = false; }
        break;
      case "x":
        var fl = card().querySelector("textarea[data-role=flag]");
        if (fl && !fl.disabled) { fl.closest("details").open = true; focusOnRelease = { key: "x", el: fl }; } else { handled = false; }
        break;
      case "z": handled = undo(); break;
      case "r": focusGroup("relevance"); break;
      case "t": focusGroup("topic_category"); break;
      case "A":
        var at = ambiguityTypeToFocus();
        if (at) { focusOnRelease = { key: "A", el: at }; } else { handled = false; }
        break;
      case "c":
        var chip = kfChipOf(current, 0);
        if (chip) { chip.focus(); chip.scrollIntoView({ block: "nearest" }); } else { handled = false; }
        break;
      case "s":
        var sc = scaleToFocus();
        if (sc) { focusOnRelease = { key: "s", el: sc }; } else { handled = false; }
        break;
      case "g": openDrawer("guidelines"); break;
      case "?": openDrawer("keys-help"); break;
      case "/": if (search) { search.focus(); } break;
      default:
        if (/^[1-9]$/.test(e.key)) { toggleErrorType(e.key); } else { handled = false; }
    }
    if (handled) { e.preventDefault(); }
  });

  // Save status and retries. A save that fails for the network or the
  // server is shown as failed and sent again with growing pauses; a save
  // the server refuses (conflict, invalid) is not retried. After a
  // conflict the page stops saving: the server has put the form back to
  // the saved labels and the page offers a reload.
  var pending = 0;
  var retryDelay = {};
  var conflicted = false;
  // unsaved holds the saving elements (forms, key-fact boxes) changed since
  // htmx last read their values, so submit can send them first. It is
  // filled in the capture phase, before htmx reacts to the same event.
  var unsaved = new Set();
  function saver(el) { return el && el.closest && el.closest("[hx-post]"); }
  ["input", "change"].forEach(function (t) {
    document.addEventListener(t, function (e) {
      var s = saver(e.target);
      if (s && ws.contains(s) && !readOnly) { unsaved.add(s); }
    }, true);
  });
  document.addEventListener("htmx:confirm", function (e) {
    if (conflicted && ws.contains(e.detail.elt)) { e.preventDefault(); }
  });
  document.addEventListener("htmx:configRequest", function (e) {
    unsaved.delete(e.detail.elt);
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (!ws.contains(e.detail.elt)) { return; }
    pending++;
    setStatus("Saving…", "saving");
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!ws.contains(e.detail.elt)) { return; }
    pending = Math.max(0, pending - 1);
    var xhr = e.detail.xhr;
    var elt = e.detail.elt;
    var key = elt.getAttribute("hx-post");
    if (xhr && xhr.status >= 200 && xhr.status < 300) {
      delete retryDelay[key];
      return;
    }
    if (xhr && xhr.status === 409) {
      conflicted = true;
      unsaved.clear();
      retryDelay = {};
      if (elt.classList.contains("kf-link")) { elt.checked = !elt.checked; updateScores(); }
      var box = document.getElementById("conflict");
      if (box) { box.hidden = false; box.scrollIntoView({ block: "nearest" }); }
      return;
    }
    if (xhr && xhr.status >= 400 && xhr.status < 500) {
      delete retryDelay[key];
      if (xhr.status === 401) { setStatus("Not saved: your session ended. Log in again in another tab, then change the label again.", "failed"); }
      return; // the fragment says why
    }
    var wait = Math.min((retryDelay[key] || 1000) * 2, 30000);
    retryDelay[key] = wait;
    var why = xhr && xhr.status ? "server error " + xhr.status : "no connection";
    var said = xhr && /^text\/plain/.test(xhr.getResponseHeader("Content-Type") || "") ? xhr.responseText : "";
    setStatus((said ? said + " " : "Not saved (" + why + "). ") + "Retrying in " + Math.round(wait / 1000) + " s…", "failed");
    setTimeout(function () { htmx.trigger(elt, "retry"); }, wait);
  });

  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var t = e.detail.target;
    if (t && t.id === "save-status" && /Saved/.test(t.textContent)) { t.className = "ws-status saved"; }
  });

  // Submit sends every change not yet sent (a typed explanation waits
  // 800 ms before it is saved), waits until every save has been answered,
  // then posts the form. After a conflict it does not submit: the page
  // does not hold what the server holds.
  var submitting = false;
  function submitWhenSaved(form) {
    if (readOnly || submitting) { return; }
    submitting = true;
    unsaved.forEach(function (el) { htmx.trigger(el, "flush"); });
    var check = function () {
      if (conflicted) {
        submitting = false;
        var box = document.getElementById("conflict");
        if (box) { box.hidden = false; box.scrollIntoView({ block: "nearest" }); }
        return;
      }
      if (pending > 0 || unsaved.size > 0 || Object.keys(retryDelay).length > 0) {
        setStatus("Waiting for the last save…", "saving");
        setTimeout(check, 100);
        return;
      }
      // The active time counted since the last report goes with the
      // submit, so none of it is lost when the page is left.
      var field = form.querySelector("input[name=active_seconds]");
      if (!field) {
        field = document.createElement("input");
        field.type = "hidden";
        field.name = "active_seconds";
        form.appendChild(field);
      }
      field.value = String(typeof unsent === "number" ? unsent : 0);
      unsent = 0;
      form.submit();
    };
    check();
  }
  var submitButton = document.getElementById("submit-button");
  if (submitButton) {
    submitButton.form.addEventListener("submit", function (e) {
      e.preventDefault();
      submitWhenSaved(submitButton.form);
    });
  }

  // Active time: a second counts while the tab is visible and the
  // annotator has pressed a key, moved or pressed the pointer, scrolled or
  // typed within the last 60 seconds (idle is a minute of none of these).
  // What is counted is reported every 30 s, when the page is hidden or
  // left, and with the submit itself.
  if (!readOnly) {
    var lastActivity = Date.now();
    unsent = 0;
    ["keydown", "mousedown", "pointerdown", "mousemove", "wheel", "touchstart", "scroll", "input"].forEach(function (t) {
      document.addEventListener(t, function () { lastActivity = Date.now(); }, { passive: true, capture: true });
    });
    // The header's timer shows the recorded active time plus what this
    // page has counted.
    var timer = document.getElementById("timer");
    var shown = timer ? parseInt(timer.dataset.seconds, 10) || 0 : 0;
    var clock = function (t) {
      var h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, sec = t % 60;
      var pad = function (n) { return (n < 10 ? "0" : "") + n; };
      return (h > 0 ? h + ":" + pad(m) : String(m)) + ":" + pad(sec);
    };
    setInterval(function () {
      if (document.visibilityState === "visible" && Date.now() - lastActivity < 60000) {
        unsent++;
        shown++;
        if (timer) { timer.textContent = clock(shown); }
      }
    }, 1000);
    var token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || "";
    var flush = function (beacon) {
      if (unsent <= 0) { return; }
      var body = new FormData();
      body.append("seconds", String(unsent));
      body.append("_csrf", token);
      var url = "/a/" + ws.dataset.assignment + "/time";
      unsent = 0;
      if (beacon && navigator.sendBeacon) { navigator.sendBeacon(url, body); return; }
      fetch(url, { method: "POST", body: body, credentials: "same-origin" }).catch(function () {});
    };
    setInterval(function () { flush(false); }, 30000);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "hidden") { flush(true); }
    });
  }
})();
