// The "hide code" switch of the reader's site (tools/build_site.py): hides the input of every code cell and
// remembers the choice across pages where the browser allows it (not in every file:// setting).
(function () {
  "use strict";
  var box = document.getElementById("site-hide-code");
  if (!box) {
    return;
  }
  var key = "starlib-site-hide-code";
  function apply() {
    document.body.classList.toggle("site-hide-code", box.checked);
  }
  try {
    box.checked = window.localStorage.getItem(key) === "1";
  } catch (e) {
    box.checked = false;
  }
  apply();
  box.addEventListener("change", function () {
    apply();
    try {
      window.localStorage.setItem(key, box.checked ? "1" : "0");
    } catch (e) {
      // storage unavailable: the switch still works on this page
    }
  });
}());
