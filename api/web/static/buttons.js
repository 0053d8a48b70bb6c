// Buttons that need a script, shown only when it runs (the page works without them): copy a read-only field's text
// (`data-copy` names the field) and print the page (`data-print`).
(function () {
  "use strict";
  function copied(button, field) {
    var status = document.querySelector('[data-copy-status="' + field.id + '"]');
    if (status) { status.textContent = button.getAttribute("data-copied") || ""; }
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      field.focus();
      field.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(function () { copied(button, field); }, function () {
          if (document.execCommand("copy")) { copied(button, field); }
        });
      } else if (document.execCommand("copy")) {
        copied(button, field);
      }
    });
  });
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
