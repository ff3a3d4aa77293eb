/*
 * The book's search worker: searches the index of the reader's language.
 *
 * Material starts it in place of its own worker (docs/assets/search.js swaps the URL in
 * Material's configuration) and talks to it with the messages of Material's worker interface:
 * SETUP (the index Material fetched) → READY, QUERY (the text typed) → RESULT (items grouped by
 * page, each with location, title, text, score and the query's words found or missing), which
 * Material's page renders as it renders its own.
 *
 * Why not Material's own search: it cuts a Chinese query again against the index's terms and
 * keeps only a prefix of each word (缓冲区 → 缓冲, 钩子 → 钩 when 钩 is also a term), which
 * matched and highlighted single characters and labelled found words "Missing"; and it searches
 * whatever one index it was given. Here a Chinese run is cut into the index's own words (jieba's,
 * from the build), every word of a query is required, a match is highlighted as the whole word of
 * the index, and the index is the one of the reader's language (tools/book/search_index.py writes
 * search_index.json in Chinese and search_index.en.json in English). lunr is Material's: its
 * worker, loaded here, exposes it as self.lunr; Material's own message handler is not used.
 *
 * URL parameters (set by search.js): material = Material's worker, index = the folder of the
 * index files, lang = zh | en, id = the page's id for language switches (BroadcastChannel).
 */
"use strict";

var params = new URL(self.location.href).searchParams;
var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
var FILES = { zh: "search_index.json", en: "search_index.en.json" };

/* Material's worker: lunr, without its message handler. */
(function () {
  var add = self.addEventListener;
  self.addEventListener = function (type, listener, options) {
    if (type !== "message") add.call(self, type, listener, options);
  };
  try {
    importScripts(params.get("material"));
  } finally {
    delete self.addEventListener;
  }
})();

var HAN = /\p{sc=Han}/u;
var TOKEN = /\p{sc=Han}+|(?:(?!\p{sc=Han})[\p{L}\p{N}_])+/gu;

/* Tokens of a field: words (letters, digits, _) and jieba's Chinese words, with their place. */
function tokenize(value, metadata) {
  var tokens = [];
  if (value === null || value === undefined) return tokens;
  var text = String(value);
  TOKEN.lastIndex = 0;
  for (var m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    var data = lunr.utils.clone(metadata) || {};
    data.position = [m.index, m[0].length];
    data.index = tokens.length;
    tokens.push(new lunr.Token(m[0].toLowerCase(), data));
  }
  return tokens;
}

var language = params.get("lang") === "en" ? "en" : "zh";
var state = null;
var ready = null;
var options = {};
var lastQuery = null;

function install(data) {
  var docs = data.docs;
  var builder = new lunr.Builder();
  builder.ref("location");
  builder.field("title", { boost: 100 });
  builder.field("text");
  builder.metadataWhitelist = ["position"];
  builder.tokenizer = tokenize;
  docs.forEach(function (doc) { builder.add(doc); });
  var index = builder.build();
  var byLocation = new Map();
  docs.forEach(function (doc) { byLocation.set(doc.location, doc); });
  /* The index's Chinese words, for cutting a Chinese query into them. */
  var words = new Set();
  var longest = 1;
  Object.keys(index.invertedIndex).forEach(function (term) {
    if (HAN.test(term)) {
      words.add(term);
      if (term.length > longest) longest = term.length;
    }
  });
  state = { index: index, docs: byLocation, words: words, longest: longest };
}

function fetchIndex(lang) {
  return fetch(new URL(FILES[lang], params.get("index"))).then(function (response) {
    if (!response.ok) throw new Error(response.status);
    return response.json();
  });
}

/* A Chinese run cut into the longest words of the index, from the left. */
function segment(run) {
  var out = [];
  for (var i = 0; i < run.length;) {
    var size = Math.min(state.longest, run.length - i);
    while (size > 1 && !state.words.has(run.substr(i, size))) size--;
    out.push(run.substr(i, size));
    i += size;
  }
  return out;
}

/* The words of a query: {term, prefix, typed}. Latin words and Chinese words of two or more
 * characters also match longer index words (typing "hoo" finds "hook"); a single Chinese
 * character only itself. `typed` is the word or Chinese run as the reader wrote it: the key under
 * which Material reports it found or missing, and highlights it on the page opened. */
function parse(raw) {
  var words = [];
  var seen = new Set();
  var text = raw.toLowerCase();
  TOKEN.lastIndex = 0;
  for (var m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    var typed = m[0];
    var parts = HAN.test(typed) ? segment(typed) : [typed];
    parts.forEach(function (part) {
      if (seen.has(part)) return;
      seen.add(part);
      words.push({ term: part, prefix: !(HAN.test(part) && part.length === 1), typed: typed });
    });
  }
  return words;
}

function run(words, required) {
  var presence = required ? lunr.Query.presence.REQUIRED : lunr.Query.presence.OPTIONAL;
  return state.index.query(function (query) {
    words.forEach(function (word) {
      query.term(word.term, {
        presence: presence,
        usePipeline: false,
        wildcard: word.prefix ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE
      });
      /* The exact word counts more than the longer words it begins. */
      if (word.prefix)
        query.term(word.term, { presence: lunr.Query.presence.OPTIONAL, usePipeline: false, boost: 2 });
    });
  });
}

function escapeHTML(value) {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

var ZWSP = /\u200b/g;

/* Places [start, end) of the matched words in one field, whole words; a single Chinese
 * character only next to another match (调度|器 for 调度器), never on its own. */
function places(value, positions) {
  var spans = positions.map(function (p) { return [p[0], p[0] + p[1]]; })
    .sort(function (a, b) { return a[0] - b[0]; });
  function joined(a, b) {
    return /^\u200b*$/.test(value.slice(a[1], b[0]));
  }
  var kept = spans.filter(function (span, i) {
    if (span[1] - span[0] !== 1 || !HAN.test(value[span[0]])) return true;
    return (i > 0 && joined(spans[i - 1], span)) || (i + 1 < spans.length && joined(span, spans[i + 1]));
  });
  var merged = [];
  kept.forEach(function (span) {
    var last = merged[merged.length - 1];
    if (last && (span[0] <= last[1] || joined(last, span))) last[1] = Math.max(last[1], span[1]);
    else merged.push(span.slice());
  });
  return merged;
}

function marked(value, spans, from, to) {
  var out = "";
  var cursor = from;
  spans.forEach(function (span) {
    if (span[1] <= from || span[0] >= to) return;
    out += escapeHTML(value.slice(cursor, Math.max(cursor, span[0])));
    out += "<mark>" + escapeHTML(value.slice(Math.max(cursor, span[0]), Math.min(span[1], to))) + "</mark>";
    cursor = Math.min(span[1], to);
  });
  out += escapeHTML(value.slice(cursor, to));
  return out.replace(ZWSP, "");
}

/* A teaser of the text: about 200 characters around the first match. */
var TEASER = 200;
function teaser(value, spans) {
  if (!value) return "";
  var first = spans.length ? spans[0][0] : 0;
  var from = Math.max(0, first - 40);
  if (from > 0) {
    var space = value.lastIndexOf(" ", first);
    if (space > from - 20 && space < first) from = space + 1;
  }
  var to = Math.min(value.length, from + TEASER);
  if (to < value.length) {
    var end = value.lastIndexOf(" ", to);
    if (end > to - 30 && end > from) to = end;
  }
  var body = marked(value, spans, from, to);
  return "<p>" + (from > 0 ? "… " : "") + body + (to < value.length ? " …" : "") + "</p>";
}

function wordFound(word, terms) {
  return terms.some(function (term) {
    return word.prefix ? term.indexOf(word.term) === 0 : term === word.term;
  });
}

function search(raw) {
  var words = parse(raw);
  if (!words.length) return { items: [] };
  var hits = run(words, true);
  if (!hits.length && words.length > 1) hits = run(words, false);
  var typed = raw.trim().toLowerCase();
  var items = hits.map(function (hit) {
    var doc = state.docs.get(hit.ref);
    var metadata = hit.matchData.metadata;
    var terms = Object.keys(metadata);
    var found = {};
    words.forEach(function (word) {
      found[word.typed] = found[word.typed] !== false && wordFound(word, terms);
    });
    var positions = { title: [], text: [] };
    terms.forEach(function (term) {
      ["title", "text"].forEach(function (field) {
        if (metadata[term][field]) positions[field].push.apply(positions[field], metadata[term][field].position);
      });
    });
    var titleSpans = places(doc.title, positions.title);
    var textSpans = places(doc.text, positions.text);
    /* A page counts more than one of its sections (as in Material's search), an object of the
     * name typed (state_dict: Module.state_dict, Optimizer.state_dict ...) more, and the object
     * named exactly as typed (Conv2d._conv_forward) most. */
    var title = doc.title.replace(ZWSP, "").toLowerCase();
    var api = doc.location.indexOf("#annotated_") >= 0;
    var name = api ? title.split(" ")[0] : title;  /* without "staticmethod" and such */
    var weight = name === typed ? 10
      : api && name.slice(-typed.length - 1) === "." + typed ? 5
      : doc.location.indexOf("#") < 0 ? 2.5 : 1;
    return {
      location: doc.location,
      title: marked(doc.title, titleSpans, 0, doc.title.length),
      text: teaser(doc.text, textSpans),
      score: hit.score * weight,
      terms: found
    };
  }).sort(function (a, b) { return b.score - a.score; });

  /* Grouped by page, best page first; each group holds its page's own entry. */
  var groups = new Map();
  items.forEach(function (item) {
    var page = item.location.split("#")[0];
    if (!groups.has(page)) groups.set(page, []);
    groups.get(page).push(item);
  });
  groups.forEach(function (group, page) {
    if (!group.some(function (item) { return item.location === page; })) {
      var doc = state.docs.get(page);
      if (doc) group.push({ location: page, title: marked(doc.title, [], 0, doc.title.length), text: "", score: 0, terms: {} });
    }
  });
  var result = { items: Array.from(groups.values()) };
  if (options.suggest) result.suggest = suggestion(raw, items);
  return result;
}

/* The completion of a last Latin word from the best result's title (Material's grey hint);
 * none for other queries, so the hint never shows anything but what was typed. */
function suggestion(raw, items) {
  var last = raw.split(/\s+/).pop();
  if (!/^[a-z0-9_]+$/.test(last) || !items.length) return [];
  var title = items[0].title.replace(/<[^>]+>/g, "").toLowerCase();
  var words = title.match(TOKEN) || [];
  var found = words.filter(function (word) { return word.indexOf(last) === 0 && word !== last; });
  return found.length ? [found[0]] : [];
}

function answer(query) {
  try {
    return { type: RESULT, data: search(query) };
  } catch (error) {
    console.warn("search failed:", query, error);
    return { type: RESULT, data: { items: [] } };
  }
}

self.addEventListener("message", function (event) {
  var message = event.data;
  if (message.type === SETUP) {
    options = message.data.options || {};
    var given = message.data.config && message.data.config.book_lang;
    var data = !given || given === language ? Promise.resolve(message.data) : fetchIndex(language);
    ready = data.then(install).then(function () { self.postMessage({ type: READY }); });
  } else if (message.type === QUERY) {
    lastQuery = message.data;
    ready.then(function () { self.postMessage(answer(message.data)); });
  }
});

/* The reader switched languages (search.js): load that index, answer the last query again. */
if (typeof BroadcastChannel !== "undefined") {
  new BroadcastChannel("book-search").onmessage = function (event) {
    var message = event.data || {};
    if (message.id !== params.get("id") || (message.lang !== "en" && message.lang !== "zh")) return;
    if (message.lang === language) return;
    language = message.lang;
    var previous = ready || Promise.resolve();
    ready = previous.then(function () { return fetchIndex(language); }).then(install).then(function () {
      if (lastQuery !== null) self.postMessage(answer(lastQuery));
    });
  };
}
