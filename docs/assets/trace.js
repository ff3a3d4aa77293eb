/*
 * The player of recorded runs (issue 20): step through an example line by line over the listings.
 *
 * The build (tools/book/trace.py, tools/book/hooks.py) puts a placeholder before a traced example,
 *   <div class="book-trace" data-trace-id="ch06-call" data-trace-src="../../traces/ch06-call.json">
 * and writes the run as JSON (steps of {tag, line, fn, ev, depth, vars, folded?}; the contract is
 * in the recorder's module). This script turns each placeholder into a player:
 *
 * - Buttons data-trace="prev" / "next" / "next-call" / "return", a scrubber, a step counter, the
 *   current function, and the step's values (.book-trace-vars): the current frame's locals known so
 *   far, the ones this step changed marked.
 * - The current source line (#{tag}-L{line}, a .book-line of a listing) gets .book-line--current
 *   and is scrolled into view when it is not already visible above the player. When the line is
 *   not on this page, the player says so and links to the page that has it.
 * - Once started the player docks to the bottom of the window (the listing is far from the
 *   example); its close button puts it back in its place and clears the highlight, its title
 *   leads back to the example.
 * - ← / → step the player last used (or the first one on screen) unless focus is in a text field.
 * - The JSON is fetched when the player comes near the screen, or on first use.
 * - Its words follow the reader's language (<html data-book-lang>, docs/assets/lang.js).
 *
 * Works with instant navigation: players are set up again for every page (document$), the
 * document-wide listeners are added once.
 */
(function () {
  "use strict";
  var root = document.documentElement;

  var WORDS = {
    zh: {
      start: "逐行运行这个例子",
      prev: "上一步", prevTitle: "上一步（←）",
      next: "下一步", nextTitle: "下一步（→）",
      call: "下个调用", callTitle: "跳到下一次函数调用",
      ret: "到返回", retTitle: "跳到当前函数返回",
      closeTitle: "关闭播放器（放回例子上方）",
      scrub: "拖动到任一步",
      count: function (i, n) { return "第 " + i + " / " + n + " 步"; },
      ready: function (n) { return "共 " + n + " 步。按 → 或“下一步”开始。"; },
      loading: "正在载入记录……",
      failed: "无法载入这次运行的记录。",
      line: "第 {n} 行",
      call_: "进入，参数：", line_: "", return_: "返回：", exception_: "抛出：",
      changed: "本步改变", none: "（本步没有变量改变）",
      folded: function (n) { return "（折叠了 " + n + " 行）"; },
      elsewhere: "这一行不在本页，见",
      unlisted: "这一行所在的函数没有在书中列出。",
      docked: "播放器停靠在窗口底部。",
      undock: "放回这里",
      back: "回到例子"
    },
    en: {
      start: "Step through this example",
      prev: "Back", prevTitle: "Step back (←)",
      next: "Next", nextTitle: "Step forward (→)",
      call: "Next call", callTitle: "Jump to the next function call",
      ret: "Return", retTitle: "Jump to where the current function returns",
      closeTitle: "Close the player (back above the example)",
      scrub: "Drag to any step",
      count: function (i, n) { return "step " + i + " / " + n; },
      ready: function (n) { return n + " steps. Press → or Next to start."; },
      loading: "Loading the recording…",
      failed: "Could not load this run's recording.",
      line: "line {n}",
      call_: "called with:", line_: "", return_: "returns:", exception_: "raises:",
      changed: "changed by this step", none: "(no variable changed)",
      folded: function (n) { return "(" + n + " lines folded)"; },
      elsewhere: "This line is not on this page; see",
      unlisted: "This line's function is not listed in the book.",
      docked: "The player is docked at the bottom of the window.",
      undock: "put it back here",
      back: "back to the example"
    }
  };
  function lang() { return root.getAttribute("data-book-lang") === "en" ? "en" : "zh"; }
  function words() { return WORDS[lang()]; }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* A link from this page to `path` (relative to the site's root `site`) + hash, as a relative URL. */
  function relativeHref(site, path, hash) {
    var target = new URL(path, site);
    var from = location.pathname.split("/");
    from.pop();
    var to = target.pathname.split("/");
    var i = 0;
    while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
    var href = "";
    for (var k = i; k < from.length; k++) href += "../";
    href += to.slice(i).join("/");
    return (href || "./") + hash;
  }

  /* The title of a page of the site as its navigation link shows it (a copy: the build's
     .book-zh / .book-en halves, of which book.css shows the reader's), or its path. */
  function pageTitle(site, path) {
    var target = new URL(path, site).href;
    var links = document.querySelectorAll(".md-nav__link[href]");
    for (var i = 0; i < links.length; i++) {
      if (links[i].href.split("#")[0] === target) {
        var text = links[i].querySelector(".md-ellipsis") || links[i];
        var copy = document.createDocumentFragment();
        for (var node = text.firstChild; node; node = node.nextSibling) copy.appendChild(node.cloneNode(true));
        return copy;
      }
    }
    return document.createTextNode(path);
  }

  /*
   * For every step: its frame (the call it belongs to), the frames it is nested in, the frame's
   * locals known so far and the names this step changed. Frames follow the events: a call opens
   * one, a return closes it after its step; a step of a function that is not the innermost open
   * one closes frames down to it (they were left by an exception), or, when no open frame is
   * its function's, opens one (the recording began inside it). A folded step is a frame of its
   * own, closed at once.
   */
  function frames(steps) {
    var stack = [];
    return steps.map(function (step) {
      var frame = null;
      if (step.ev !== "call" && !step.folded) {
        for (var k = stack.length - 1; k >= 0; k--) {
          if (stack[k].fn === step.fn) { frame = stack[k]; stack.length = k + 1; break; }
        }
      }
      if (!frame) {
        frame = { fn: step.fn, locals: {}, parent: stack[stack.length - 1] || null };
        stack.push(frame);
      }
      var changed = Object.keys(step.vars || {});
      if (step.ev === "call" || step.ev === "line") {
        changed.forEach(function (name) { frame.locals[name] = step.vars[name]; });
      }
      var locals = {};
      for (var name in frame.locals) locals[name] = frame.locals[name];
      var info = {
        frame: frame,
        locals: locals,
        changed: changed,
        stack: stack.map(function (f) { return f.fn; })
      };
      if (step.ev === "return" || step.folded) stack.pop();
      return info;
    });
  }

  var players = [];
  var active = null;

  function Player(node) {
    this.node = node;
    this.src = node.getAttribute("data-trace-src");
    // The recording is traces/RUN_ID.json at the site's root. (Not Material's configuration: with
    // instant navigation it stays the first page's.)
    this.site = new URL("../", new URL(this.src, location.href));
    this.data = null;
    this.loading = null;
    this.index = -1;
    this.current = null;
    this.build();
    this.render();
  }

  Player.prototype.build = function () {
    var self = this;
    var node = this.node;
    node.textContent = "";
    node.setAttribute("role", "group");
    if (!node.id) node.id = "trace-" + (node.getAttribute("data-trace-id") || players.length);
    this.stub = el("div", "book-trace-stub");
    this.stubText = el("span");
    this.stubBack = el("button", "book-trace-link");
    this.stubBack.type = "button";
    this.stubBack.addEventListener("click", function () { self.undock(); });
    this.stub.appendChild(this.stubText);
    this.stub.appendChild(document.createTextNode(" "));
    this.stub.appendChild(this.stubBack);
    node.appendChild(this.stub);

    var panel = this.panel = el("div", "book-trace-panel");
    var head = el("div", "book-trace-head");
    this.title = el("a", "book-trace-title");
    this.title.href = "#" + node.id;
    this.title.addEventListener("click", function (event) {
      event.preventDefault();
      self.undock();
      node.scrollIntoView({ block: "center" });
    });
    this.count = el("span", "book-trace-count");
    this.close = el("button", "book-trace-close", "×");
    this.close.type = "button";
    this.close.addEventListener("click", function () { self.undock(); });
    head.appendChild(this.title);
    head.appendChild(this.count);
    head.appendChild(this.close);

    var controls = el("div", "book-trace-controls");
    this.buttons = {};
    [["prev", "prev"], ["next", "next"], ["next-call", "call"], ["return", "ret"]].forEach(function (pair) {
      var button = el("button", "book-trace-button book-trace-" + pair[0]);
      button.type = "button";
      button.setAttribute("data-trace", pair[0]);
      button.addEventListener("click", function () { self.command(pair[0]); });
      self.buttons[pair[1]] = button;
      controls.appendChild(button);
    });
    this.scrub = el("input", "book-trace-scrub");
    this.scrub.type = "range";
    this.scrub.min = "0";
    this.scrub.max = "0";
    this.scrub.value = "0";
    this.scrub.addEventListener("input", function () {
      self.use(function () { self.go(parseInt(self.scrub.value, 10)); });
    });
    controls.appendChild(this.scrub);

    this.where = el("div", "book-trace-where");
    this.vars = el("div", "book-trace-vars");
    this.where.setAttribute("aria-live", "polite");
    panel.appendChild(head);
    panel.appendChild(controls);
    panel.appendChild(this.where);
    panel.appendChild(this.vars);
    node.appendChild(panel);
  };

  /* Fetch the run (once); resolves to the data, or rejects. */
  Player.prototype.load = function () {
    var self = this;
    if (!this.loading) {
      this.loading = fetch(new URL(this.src, location.href))
        .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
        .then(function (data) {
          self.data = data;
          self.info = frames(data.steps || []);
          self.scrub.max = String(Math.max(0, data.steps.length - 1));
          self.render();
          return data;
        })
        .catch(function (error) {
          self.failed = true;
          self.loading = null;
          self.render();
          throw error;
        });
      this.render();
    }
    return this.loading;
  };

  /* Run `action` once the data is there; this player becomes the one the keyboard steps. */
  Player.prototype.use = function (action) {
    active = this;
    if (this.data) { action(); return; }
    this.failed = false;
    this.load().then(action, function () { /* render() says so */ });
  };

  Player.prototype.command = function (name) {
    var self = this;
    this.use(function () {
      var steps = self.data.steps;
      var i = self.index;
      var target = i;
      if (name === "next") target = i + 1;
      else if (name === "prev") target = i - 1;
      else if (name === "next-call") target = self.find(i, function (s) { return s.ev === "call"; });
      else if (name === "return") target = self.end(i);
      if (target < 0) target = 0;
      self.go(target);
    });
  };

  /* The last step of the frame of step i (its return, when recorded); from that step, the last
     of the caller's. */
  Player.prototype.end = function (i) {
    var info = this.info;
    if (i < 0) return info.length - 1;
    for (var frame = info[i].frame; frame; frame = frame.parent) {
      var last = i;
      for (var k = i + 1; k < info.length && within(info[k].frame, frame); k++) last = k;
      if (last > i) return last;
    }
    return i;
  };
  function within(frame, outer) {
    for (; frame; frame = frame.parent) if (frame === outer) return true;
    return false;
  }

  Player.prototype.find = function (from, test) {
    var steps = this.data.steps;
    for (var k = from + 1; k < steps.length; k++) if (test(steps[k])) return k;
    return from;
  };

  Player.prototype.go = function (i) {
    var steps = this.data.steps;
    if (!steps.length) return;
    i = Math.max(0, Math.min(steps.length - 1, i));
    var moved = i !== this.index;
    this.index = i;
    players.forEach(function (other) { if (other !== this) other.undock(true); }, this);
    this.dock();
    this.highlight(moved);
    this.render();
  };

  /* The current line of this step, or null when this page has no listing of it. */
  Player.prototype.lineNode = function () {
    var step = this.data.steps[this.index];
    return step ? document.getElementById(step.tag + "-L" + step.line) : null;
  };

  Player.prototype.highlight = function (scroll) {
    this.current = null;
    var previous = document.querySelectorAll(".book-line--current");
    for (var k = 0; k < previous.length; k++) previous[k].classList.remove("book-line--current");
    var line = this.lineNode();
    if (!line) return;
    for (var up = line.parentElement; up; up = up.parentElement)
      if (up.tagName === "DETAILS" && !up.open) up.open = true;
    line.classList.add("book-line--current");
    this.current = line;
    if (scroll) reveal(line, this.docked ? this.panel : null);
  };

  /* Scroll `line` into the part of the window the header and the docked panel leave free, only
     when it is not (entirely) there already. While a smooth scroll is under way, "there" is where
     that scroll ends (a reader stepping fast would otherwise be carried past the line). */
  var scrollTarget = null;
  var scrollTimer = 0;
  function scrolled() { scrollTarget = null; }
  window.addEventListener("scrollend", scrolled);
  function reveal(line, panel) {
    var header = document.querySelector(".md-header");
    var top = header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
    var bottom = panel ? panel.getBoundingClientRect().top : window.innerHeight;
    var box = line.getBoundingClientRect();
    var y = scrollTarget === null ? window.scrollY : scrollTarget;
    var lineTop = box.top + window.scrollY - y;
    if (lineTop >= top + 4 && lineTop + box.height <= bottom - 4) return;
    var room = bottom - top;
    var offset = Math.min(room / 3, Math.max(8, room - box.height - 8));
    var end = document.documentElement.scrollHeight - window.innerHeight;
    scrollTarget = Math.max(0, Math.min(end, y + lineTop - top - offset));
    var smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top: scrollTarget, behavior: smooth ? "smooth" : "auto" });
    if (!("onscrollend" in window)) {
      clearTimeout(scrollTimer);
      scrollTimer = setTimeout(scrolled, smooth ? 1500 : 0);
    }
  }

  Player.prototype.dock = function () {
    if (this.docked) return;
    this.docked = true;
    this.node.classList.add("book-trace--docked");
    root.classList.add("book-trace-docked");
    this.measure();
  };

  /* Back in its place, the highlight cleared; the page stays where the reader is (quiet: another
     player docks instead, the focus stays too). */
  Player.prototype.undock = function (quiet) {
    if (!this.docked) return;
    this.docked = false;
    this.node.classList.remove("book-trace--docked");
    if (this.current) this.current.classList.remove("book-line--current");
    this.current = null;
    if (!players.some(function (p) { return p.docked; })) {
      root.classList.remove("book-trace-docked");
      root.style.removeProperty("--book-trace-h");
    }
    if (!quiet) this.buttons.next.focus({ preventScroll: true });
  };

  /* The page keeps room at its end for the docked panel (so the last lines can scroll above it). */
  Player.prototype.measure = function () {
    if (!this.docked) return;
    var column = document.querySelector(".md-content__inner") || this.node.parentElement;
    var box = column.getBoundingClientRect();
    this.node.style.setProperty("--book-trace-left", box.left + "px");
    this.node.style.setProperty("--book-trace-width", box.width + "px");
    root.style.setProperty("--book-trace-h", this.panel.offsetHeight + "px");
  };

  Player.prototype.render = function () {
    var w = words();
    var data = this.data;
    var n = data ? data.steps.length : 0;
    var i = this.index;
    var title = data && data.title ? (data.title[lang()] || data.title.en || data.id) : w.start;
    this.title.textContent = title;
    this.title.title = w.back;
    this.close.title = w.closeTitle;
    this.close.setAttribute("aria-label", w.closeTitle);
    this.node.setAttribute("aria-label", title);
    this.stubText.textContent = w.docked;
    this.stubBack.textContent = w.undock;
    var labels = { prev: [w.prev, w.prevTitle], next: [w.next, w.nextTitle], call: [w.call, w.callTitle], ret: [w.ret, w.retTitle] };
    for (var key in labels) {
      this.buttons[key].textContent = labels[key][0];
      this.buttons[key].title = labels[key][1];
    }
    this.scrub.setAttribute("aria-label", w.scrub);
    this.scrub.title = w.scrub;
    this.count.textContent = data ? w.count(Math.max(0, i + 1), n) : "";
    this.buttons.prev.disabled = !!data && i <= 0;
    this.buttons.next.disabled = !!data && i >= n - 1;
    this.buttons.call.disabled = !!data && this.find(i, function (s) { return s.ev === "call"; }) === i;
    this.buttons.ret.disabled = !!data && (i < 0 || this.end(i) === i);
    this.scrub.disabled = !data;
    this.scrub.value = String(Math.max(0, i));

    this.where.textContent = "";
    this.vars.textContent = "";
    if (!data) {
      this.where.textContent = this.failed ? w.failed : this.loading ? w.loading : "";
      return;
    }
    if (i < 0) {
      this.where.textContent = w.ready(n);
      return;
    }
    var step = data.steps[i];
    var info = this.info[i];
    this.renderWhere(step, info, w);
    this.renderVars(step, info, w);
    this.measure();
  };

  Player.prototype.renderWhere = function (step, info, w) {
    var where = this.where;
    var stack = el("span", "book-trace-stack");
    var callers = info.stack.slice(0, -1);
    if (callers.length) stack.appendChild(el("span", "book-trace-callers",
      callers.slice(-2).join(" › ") + " › "));
    stack.appendChild(el("code", "book-trace-fn", step.fn));
    stack.title = info.stack.join(" › ");
    where.appendChild(stack);
    var file = this.data.files && this.data.files[step.tag];
    var at = el("span", "book-trace-at",
      (file ? file.split("/").pop() + ":" + step.line : w.line.replace("{n}", step.line)));
    where.appendChild(at);
    if (step.folded) where.appendChild(el("span", "book-trace-folded", w.folded(step.folded)));
    if (this.current) return;
    var fn = this.data.functions && this.data.functions[step.fn];
    var away = el("div", "book-trace-away");
    if (fn && fn.page && new URL(fn.page, this.site).pathname !== location.pathname) {
      away.appendChild(document.createTextNode(w.elsewhere + " "));
      var link = el("a", "book-trace-page");
      link.appendChild(pageTitle(this.site, fn.page));
      link.href = relativeHref(this.site, fn.page, "#" + step.tag + "-L" + step.line);
      away.appendChild(link);
    } else {
      away.textContent = w.unlisted;
    }
    where.appendChild(away);
  };

  Player.prototype.renderVars = function (step, info, w) {
    var vars = this.vars;
    var label = w[step.ev + "_"];
    if (step.ev === "return" || step.ev === "exception") {
      // A return either gives a value or lets an exception through ({"raise": ...}).
      var raised = (step.vars || {}).raise;
      var value = raised !== undefined ? raised : (step.vars || {})["return"];
      vars.appendChild(el("span", "book-trace-ev", raised !== undefined ? w.exception_ : label));
      if (value !== undefined) vars.appendChild(el("code", "book-trace-value", value));
      return;
    }
    if (label) vars.appendChild(el("span", "book-trace-ev", label));
    // What this step changed first, then the rest of the frame's locals.
    var names = Object.keys(info.locals).sort(function (a, b) {
      return (info.changed.indexOf(b) >= 0) - (info.changed.indexOf(a) >= 0);
    });
    if (!names.length && step.ev === "line") {
      vars.appendChild(el("span", "book-trace-none", w.none));
      return;
    }
    var list = el("dl", "book-trace-list");
    names.forEach(function (name) {
      var changed = info.changed.indexOf(name) >= 0;
      var item = el("div", "book-trace-var" + (changed ? " book-trace-var--changed" : ""));
      if (changed) item.title = w.changed;
      item.appendChild(el("dt", "", name));
      item.appendChild(el("dd", "", info.locals[name]));
      list.appendChild(item);
    });
    vars.appendChild(list);
  };

  /* ← / →: the player last used, else the first on screen, else the first on the page. */
  function target() {
    if (active && players.indexOf(active) >= 0) return active;
    for (var k = 0; k < players.length; k++) {
      var box = players[k].node.getBoundingClientRect();
      if (box.bottom > 0 && box.top < window.innerHeight) return players[k];
    }
    return players[0] || null;
  }

  function typing(node) {
    if (!node || node === document.body) return false;
    if (node.isContentEditable) return true;
    var tag = node.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    if (typing(event.target) || typing(document.activeElement)) return;
    var search = document.querySelector("input[data-md-toggle=search]");
    if (search && search.checked) return;
    var player = target();
    if (!player) return;
    event.preventDefault();
    player.command(event.key === "ArrowRight" ? "next" : "prev");
  });

  /* The reader's language changed: every player's words follow. */
  if (typeof MutationObserver !== "undefined") {
    new MutationObserver(function () {
      players.forEach(function (player) { player.render(); });
    }).observe(root, { attributes: true, attributeFilter: ["data-book-lang"] });
  }
  window.addEventListener("resize", function () {
    players.forEach(function (player) { player.measure(); });
  });

  var watcher = null;
  function init() {
    if (watcher) watcher.disconnect();
    players = [];
    active = null;
    root.classList.remove("book-trace-docked");
    root.style.removeProperty("--book-trace-h");
    var nodes = document.querySelectorAll(".book-trace[data-trace-src]");
    for (var k = 0; k < nodes.length; k++) players.push(new Player(nodes[k]));
    if (!players.length) return;
    if (typeof IntersectionObserver === "undefined") {
      players.forEach(function (player) { player.load().catch(function () {}); });
      return;
    }
    watcher = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        watcher.unobserve(entry.target);
        players.forEach(function (player) {
          if (player.node === entry.target) player.load().catch(function () {});
        });
      });
    }, { rootMargin: "300px 0px" });
    players.forEach(function (player) { watcher.observe(player.node); });
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
