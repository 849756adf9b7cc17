// Page behaviour that plain HTML cannot give. Kept small on purpose.
(function () {
  "use strict";
  // Let htmx swap in 4xx fragments (validation messages, conflicts) instead
  // of silently dropping them.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var status = e.detail.xhr.status;
    if (status === 409 || status === 422) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
})();
