// Tables that read on a phone: each data table (a table in a .table-wrap
// box) gets its column headings copied onto its cells as data-label, so
// that on a narrow screen app.css can show every row as a card of
// "heading: value" lines instead of a row to scroll sideways. Without this
// script the table scrolls inside its own box, as on any screen.
(function () {
  "use strict";

  function headings(table) {
    var rows = table.tHead ? table.tHead.rows : [];
    if (!rows.length) { return null; }
    var row = rows[rows.length - 1];
    var out = [];
    for (var i = 0; i < row.cells.length; i++) {
      var c = row.cells[i];
      var text = (c.getAttribute("aria-label") || c.textContent || "").replace(/\s+/g, " ").trim();
      for (var s = 0; s < (c.colSpan || 1); s++) { out.push(text); }
    }
    return out;
  }

  function label(root) {
    var tables = (root || document).querySelectorAll(".table-wrap > table");
    for (var t = 0; t < tables.length; t++) {
      var table = tables[t];
      var names = headings(table);
      if (!names) { continue; }
      table.classList.add("stackable");
      for (var b = 0; b < table.tBodies.length; b++) {
        var rows = table.tBodies[b].rows;
        for (var r = 0; r < rows.length; r++) {
          var col = 0;
          var cells = rows[r].cells;
          for (var i = 0; i < cells.length; i++) {
            if (!cells[i].hasAttribute("data-label") && names[col]) {
              cells[i].setAttribute("data-label", names[col]);
            }
            col += cells[i].colSpan || 1;
          }
        }
      }
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { label(document); });
  } else {
    label(document);
  }
  // Rows that htmx swaps in (live run rows, for one) get their labels too.
  document.addEventListener("htmx:afterSettle", function () { label(document); });
})();
