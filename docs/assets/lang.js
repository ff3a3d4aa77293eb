/*
 * The book's language switch (中文 / English).
 *
 * One choice for the whole site: it is the most recent "中文" or "English" label in Material's
 * memory of linked content tabs (feature content.tabs.link, localStorage "__tabs"), so clicking
 * either tab anywhere switches every tab on every page and is remembered; 中文 on a first visit.
 * The choice is mirrored on <html data-book-lang="zh|en">, which docs/assets/book.css uses to
 * show only that language's "# 中:" or "# EN:" comment lines in the code, and only that
 * language's half of the generated pages. A header button switches on pages without tabs.
 * Works with instant navigation: state lives on <html> and listeners on document.
 */
(function () {
  "use strict";
  var LABEL = { zh: "中文", en: "English" };
  var CODE = { "中文": "zh", "English": "en" };

  function stored() {
    try {
      var tabs = (typeof __md_get === "function" && __md_get("__tabs")) || [];
      for (var i = 0; i < tabs.length; i++) {
        if (CODE[tabs[i]]) return CODE[tabs[i]];
      }
    } catch (e) { /* no storage: keep the default */ }
    return "zh";
  }

  function show(lang) {
    document.documentElement.setAttribute("data-book-lang", lang);
    var button = document.querySelector(".book-lang-toggle");
    if (button) {
      button.setAttribute("aria-pressed", lang === "en" ? "true" : "false");
      button.title = lang === "en" ? "切换到中文 / Switch to Chinese" : "Switch to English / 切换到英文";
    }
  }

  function remember(lang) {
    if (typeof __md_get !== "function" || typeof __md_set !== "function") return;
    var label = LABEL[lang];
    var tabs = (__md_get("__tabs") || []).filter(function (t) { return t !== label; });
    __md_set("__tabs", [label].concat(tabs));
  }

  function choose(lang) {
    // Clicking one tab of the language lets Material switch (and remember) all linked tabs.
    var labels = document.querySelectorAll(".tabbed-labels > label");
    for (var i = 0; i < labels.length; i++) {
      if (labels[i].innerText.trim() === LABEL[lang]) {
        var input = document.getElementById(labels[i].htmlFor);
        if (input && !input.checked) {
          input.click();
        }
        break;
      }
    }
    remember(lang);
    show(lang);
  }

  function addButton() {
    if (document.querySelector(".book-lang-toggle")) return;
    var search = document.querySelector(".md-header__inner .md-search");
    var inner = document.querySelector(".md-header__inner");
    if (!inner) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "md-header__button book-lang-toggle";
    button.innerHTML = '<span class="book-lang-zh">中</span><span class="book-lang-sep">/</span><span class="book-lang-en">EN</span>';
    button.addEventListener("click", function () {
      choose(document.documentElement.getAttribute("data-book-lang") === "en" ? "zh" : "en");
    });
    inner.insertBefore(button, search || null);
  }

  // A tab of either language was selected (by the reader or by Material's linking).
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches(".tabbed-set > input")) return;
    var label = document.querySelector('label[for="' + CSS.escape(input.id) + '"]');
    var lang = label && CODE[label.innerText.trim()];
    if (lang) show(lang);
  });

  function init() {
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
