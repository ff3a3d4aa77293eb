/*
 * The book's reader-side scripts: the language switch (中文 / English) and the PyTorch comparison
 * panels. Search in the reader's language: docs/assets/search.js and search-worker.js.
 *
 * Language. One choice for the whole site, kept in localStorage "book-lang" ("zh" or "en"),
 * 中文 on a first visit. It is mirrored on <html data-book-lang>, which docs/assets/book.css uses
 * to show only that language's half of every bilingual text (the build wraps each half in
 * .book-zh / .book-en). Attributes the build doubled (data-book-en-placeholder, ...-title,
 * ...-aria-label) are swapped here. The header button is the switch.
 *
 * Works with instant navigation: state lives on <html> and listeners on document.
 */
(function () {
  "use strict";
  var KEY = "book-lang";
  var ATTRIBUTES = ["placeholder", "title", "aria-label"];

  function stored() {
    try {
      return localStorage.getItem(KEY) === "en" ? "en" : "zh";
    } catch (e) {
      return "zh";
    }
  }

  function swapAttributes(lang) {
    ATTRIBUTES.forEach(function (name) {
      var nodes = document.querySelectorAll("[data-book-en-" + name + "]");
      for (var i = 0; i < nodes.length; i++) {
        var node = nodes[i];
        if (!node.hasAttribute("data-book-zh-" + name)) {
          node.setAttribute("data-book-zh-" + name, node.getAttribute(name) || "");
        }
        node.setAttribute(name, node.getAttribute("data-book-" + lang + "-" + name));
      }
    });
  }

  /* The window title: "页面 / Page - 站名 / Site" becomes the chosen language's halves. */
  var HAS_CJK = /[\u3400-\u9fff]/;
  function titleFor(lang) {
    var original = document.documentElement.getAttribute("data-book-title");
    if (original === null) {
      original = document.title;
      document.documentElement.setAttribute("data-book-title", original);
    }
    return original.split(" - ").map(function (part) {
      var halves = part.split(" / ");
      if (halves.length < 2) return part;
      var chinese = halves.filter(function (h) { return HAS_CJK.test(h); });
      var english = halves.filter(function (h) { return !HAS_CJK.test(h); });
      if (!chinese.length || !english.length) return part;
      return (lang === "en" ? english : chinese).join(" / ");
    }).join(" - ");
  }

  function show(lang) {
    var root = document.documentElement;
    root.setAttribute("data-book-lang", lang);
    root.setAttribute("lang", lang === "en" ? "en" : "zh");
    swapAttributes(lang);
    document.title = titleFor(lang);
    var button = document.querySelector(".book-lang-toggle");
    if (button) {
      button.setAttribute("aria-pressed", lang === "en" ? "true" : "false");
      var label = lang === "en" ? "Switch to Chinese" : "切换到英文";
      button.title = label;
      button.setAttribute("aria-label", label);
    }
  }

  function choose(lang) {
    try { localStorage.setItem(KEY, lang); } catch (e) { /* not remembered */ }
    show(lang);
  }

  function addButton() {
    if (document.querySelector(".book-lang-toggle")) return;
    var inner = document.querySelector(".md-header__inner");
    if (!inner) return;
    var search = inner.querySelector(".md-search");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "md-header__button book-lang-toggle";
    button.innerHTML = '<span class="book-lang-zh">中</span><span class="book-lang-sep">/</span><span class="book-lang-en">EN</span>';
    button.addEventListener("click", function () {
      choose(document.documentElement.getAttribute("data-book-lang") === "en" ? "zh" : "en");
    });
    inner.insertBefore(button, search || null);
  }

  /* Comparison panels: the diff is a small file of its own, fetched when the panel opens. */
  document.addEventListener("toggle", function (event) {
    var panel = event.target;
    if (!panel.matches || !panel.matches("details.book-cmp-panel") || !panel.open) return;
    var body = panel.querySelector(".book-cmp-body");
    if (!body || body.getAttribute("data-loaded")) return;
    body.setAttribute("data-loaded", "1");
    fetch(panel.getAttribute("data-book-src"))
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (fragment) { body.innerHTML = fragment; })
      .catch(function () {
        body.removeAttribute("data-loaded");
        body.textContent = "无法载入 / could not load";
      });
  }, true);

  function init() {
    document.documentElement.removeAttribute("data-book-title");
    addButton();
    show(stored());
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
