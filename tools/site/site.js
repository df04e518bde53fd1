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

// Search (tools/build_site.py writes the index, window.STARLIB_SEARCH: title, href from the site's top and text of
// every page): the pages that contain every word of the query, titles first, each with a snippet.
(function () {
  "use strict";
  var box = document.getElementById("site-search");
  var list = document.getElementById("site-search-results");
  var index = window.STARLIB_SEARCH || [];
  if (!box || !list) {
    return;
  }
  var root = document.body.getAttribute("data-site-root") || "";
  function snippet(text, word) {
    var at = text.toLowerCase().indexOf(word);
    var start = Math.max(0, at - 40);
    var span = document.createElement("span");
    span.className = "site-snippet";
    span.appendChild(document.createTextNode((start > 0 ? "\u2026" : "") + text.slice(start, at)));
    var mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + word.length);
    span.appendChild(mark);
    span.appendChild(document.createTextNode(text.slice(at + word.length, at + word.length + 60) + "\u2026"));
    return span;
  }
  function run() {
    var words = box.value.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 1; });
    list.textContent = "";
    if (!words.length) {
      return;
    }
    var hits = index.filter(function (p) {
      var hay = (p.title + " " + p.text).toLowerCase();
      return words.every(function (w) { return hay.indexOf(w) >= 0; });
    });
    hits.sort(function (a, b) {
      var ta = words.every(function (w) { return a.title.toLowerCase().indexOf(w) >= 0; }) ? 0 : 1;
      var tb = words.every(function (w) { return b.title.toLowerCase().indexOf(w) >= 0; }) ? 0 : 1;
      return ta - tb;
    });
    if (!hits.length) {
      var none = document.createElement("li");
      none.textContent = "no page has all of these words";
      list.appendChild(none);
    }
    hits.slice(0, 20).forEach(function (p) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + p.href;
      a.className = "site-search-hit";
      a.textContent = p.title;
      li.appendChild(a);
      if (p.text.toLowerCase().indexOf(words[0]) >= 0) {
        li.appendChild(snippet(p.text, words[0]));
      }
      list.appendChild(li);
    });
  }
  box.addEventListener("input", run);
}());
