/*
 * Search in the reader's language (loaded by tools/book/overrides/main.html right after
 * Material's configuration, before Material's bundle reads it).
 *
 * - Material's search worker is replaced by docs/assets/search-worker.js (the "search" entry of
 *   the configuration), which is told the reader's language and where the indexes are.
 * - Material fetches search/search_index.json (the Chinese index) when the page loads; in
 *   English mode that request is pointed at search_index.en.json, so a reader downloads one
 *   language. (Should Material fetch it some other way, the worker notices the language of what
 *   it was given and fetches the right file itself.)
 * - When the reader switches languages (<html data-book-lang>, docs/assets/lang.js), the worker
 *   loads the other index and answers the last query again, and Material's own words in the
 *   results ("3 more on this page") follow.
 * - Material runs a query on keyup only. Typing through an input method (Chinese pinyin, say)
 *   or pasting may end without one: a query also runs on input and when a composition ends,
 *   and not on the keyups in the middle of a composition (they would search the pinyin).
 *
 * What the reader typed is what Material shows and sends: the worker does the rest.
 */
(function () {
  "use strict";
  var node = document.getElementById("__config");
  if (!node) return;
  var root = document.documentElement;
  function language() {
    return root.getAttribute("data-book-lang") === "en" ? "en" : "zh";
  }
  var config = JSON.parse(node.textContent);
  if (!config.search) return;
  var here = document.currentScript ? document.currentScript.src : location.href;
  var id = Math.random().toString(36).slice(2);
  var worker = new URL("search-worker.js", here);
  worker.searchParams.set("material", new URL(config.search, location.href).href);
  worker.searchParams.set("index", new URL("search/", new URL(config.base + "/", location.href)).href);
  worker.searchParams.set("lang", language());
  worker.searchParams.set("id", id);
  config.search = worker.href;
  node.textContent = JSON.stringify(config);

  /* Material parses this configuration once, when its bundle starts, and keeps its words
   * ("3 more on this page") there: keep a hold of that object to give it the other language's
   * words when the reader switches (tools/book/overrides/main.html puts both sets in). */
  var material = null;
  var parse = JSON.parse;
  var text = node.textContent;
  JSON.parse = function (value) {
    var out = parse.apply(JSON, arguments);
    if (value === text) {
      material = out;
      JSON.parse = parse;
    }
    return out;
  };

  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (language() === "en" && /\/search\/search_index\.json$/.test(String(url)))
      args[1] = String(url).replace(/search_index\.json$/, "search_index.en.json");
    return open.apply(this, args);
  };

  if (typeof BroadcastChannel !== "undefined" && typeof MutationObserver !== "undefined") {
    var channel = new BroadcastChannel("book-search");
    var shown = language();
    new MutationObserver(function () {
      if (language() === shown) return;
      shown = language();
      var words = config.book_translations && config.book_translations[shown];
      if (material && material.translations && words)
        for (var key in words) material.translations[key] = words[key];
      channel.postMessage({ id: id, lang: shown });
    }).observe(root, { attributes: true, attributeFilter: ["data-book-lang"] });
  }

  function isQuery(target) {
    return !!(target && target.matches && target.matches("input[data-md-component=search-query]"));
  }
  var composing = false;
  function runQuery(input) {
    input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  }
  document.addEventListener("compositionstart", function (event) {
    if (isQuery(event.target)) composing = true;
  }, true);
  document.addEventListener("compositionend", function (event) {
    if (!isQuery(event.target)) return;
    composing = false;
    runQuery(event.target);
  }, true);
  document.addEventListener("input", function (event) {
    if (isQuery(event.target) && !composing && !event.isComposing) runQuery(event.target);
  }, true);
  document.addEventListener("keyup", function (event) {
    if (isQuery(event.target) && (composing || event.isComposing)) event.stopPropagation();
  }, true);
})();
