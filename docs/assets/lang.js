/*
 * The book's reader-side scripts: the language switch (中文 / English), the PyTorch comparison
 * panels, and Chinese word segmentation of search queries.
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

  /*
   * Search. The index was built with jieba's words separated by U+200B (mkdocs.yml); a Chinese
   * query typed without spaces is one long term that matches nothing, or only its first word. The
   * build writes the index's Chinese vocabulary (search/book-words.json); here a query is cut into
   * the longest known words, and each becomes a required term (+word*), so 注册缓冲区 finds the
   * pages that contain both 注册 and 缓冲区. Material reads the input's value: the getter is
   * wrapped so the reader still sees what they typed.
   */
  var words = null;
  var longest = 1;
  var CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;

  function loadWords() {
    if (words) return;
    words = {};
    var config = document.getElementById("__config");
    var root = config ? JSON.parse(config.textContent).base : ".";
    fetch(new URL(root + "/search/book-words.json", location.href))
      .then(function (response) { return response.json(); })
      .then(function (list) {
        list.forEach(function (word) {
          words[word] = true;
          if (word.length > longest) longest = word.length;
        });
      })
      .catch(function () { /* plain search without segmentation */ });
  }

  function segment(run) {
    var out = [];
    var i = 0;
    while (i < run.length) {
      var size = Math.min(longest, run.length - i);
      while (size > 1 && !words[run.substr(i, size)]) size--;
      out.push(run.substr(i, size));
      i += size;
    }
    return out;
  }

  /*
   * Material's search worker then cuts every Chinese run once more, against the index's terms,
   * and its cut never keeps a run whole: 缓冲区 becomes 缓冲 as soon as 缓冲 is an index term
   * somewhere, and 缓冲 alone no longer matches the pages that have 缓冲区. A trailing wildcard
   * survives that cut (缓冲区* becomes 缓冲*, which matches 缓冲区), so every word gets one.
   */
  function rewrite(query) {
    if (!words || !CJK_RUN.test(query)) return query;
    CJK_RUN.lastIndex = 0;
    return query.replace(CJK_RUN, function (run) {
      var parts = segment(run);
      if (parts.length < 2) return words[run] ? run + "*" : run;
      return parts.map(function (part) { return "+" + part + "*"; }).join(" ");
    });
  }

  function wrapSearch() {
    var input = document.querySelector("input[data-md-component=search-query]");
    if (!input || input.__bookWrapped) return;
    var native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
    Object.defineProperty(input, "value", {
      configurable: true,
      get: function () { return rewrite(native.get.call(this)); },
      set: function (value) { native.set.call(this, value); }
    });
    input.__bookWrapped = true;
    input.addEventListener("focus", loadWords);
  }

  function init() {
    document.documentElement.removeAttribute("data-book-title");
    addButton();
    wrapSearch();
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
