// perfgate dashboard: reads the data inlined in the page (the index's, or
// a suite's) and draws one SVG line chart per series, lazily as cards
// scroll into view. All text from the data goes through textContent.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const app = document.getElementById("app");
  const slug = document.body.dataset.suite;
  const params = new URLSearchParams(location.search);

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function fail(err) {
    const p = document.getElementById("status") || app.appendChild(el("p"));
    p.id = "errors";
    p.textContent = "Could not load the dashboard: " + err;
  }
  function commitLink(repo, sha) {
    const short = (sha || "").slice(0, 7) || "?";
    if (!repo || !/^[0-9a-f]{7,40}$/i.test(sha) || !/^https?:\/\//.test(repo)) return el("code", {}, short);
    const a = el("a", { href: repo.replace(/\/$/, "") + "/commit/" + sha }, short);
    return a;
  }
  // num formats v with four significant digits and never an exponent
  // (67.73, 0.1235, 278300): the values come scaled to their axis's unit.
  function num(v, decimals) {
    const a = Math.abs(v);
    if (decimals === undefined) decimals = a === 0 ? 0 : Math.min(Math.max(3 - Math.floor(Math.log10(a)), 0), 6);
    return v.toFixed(decimals);
  }
  function val(v, s) { return num(v * s.scale) + " " + s.shown; }

  // ticks returns four to eight round values (1, 2 or 5 × 10^k apart)
  // within lo..hi, and the decimals that tell them apart.
  function ticks(lo, hi) {
    let e = Math.floor(Math.log10(hi - lo)), k = 2; // steps[k] × 10^e: start at 10^(e+1)
    const steps = [1, 2, 5];
    let step, first, count;
    for (;;) {
      step = steps[k] * Math.pow(10, e + 1);
      first = Math.ceil(lo / step);
      count = Math.floor(hi / step) - first + 1;
      if (count >= 4) break;
      if (--k < 0) { k = 2; e--; }
    }
    const out = [];
    for (let i = 0; i < count; i++) out.push((first + i) * step);
    return { values: out, decimals: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
  }

  // timeLabels labels about four of the drawn points with their run's
  // date, or date and time when the runs span under three days, and never
  // the same text twice.
  function timeLabels(s, d, count) {
    const t = (p) => d.runs[p[1]][1];
    const first = Date.parse(t(s.p[0])), last = Date.parse(t(s.p[s.p.length - 1]));
    const withTime = !(last - first >= 3 * 86400e3);
    const out = [];
    let prev = "";
    for (let k = 0; k < count; k++) {
      const p = s.p[Math.round(k * (s.p.length - 1) / Math.max(count - 1, 1))];
      const iso = t(p);
      const text = withTime ? iso.slice(5, 10) + " " + iso.slice(11, 16) : iso.slice(0, 10);
      if (text === prev) continue;
      prev = text;
      out.push([p[0], text]);
    }
    return out;
  }

  // load reads the page's data, inlined in it (see page.go): it opens
  // from disk, where browsers refuse fetch(), as well as served.
  async function load() {
    const e = document.getElementById("data");
    if (!e) throw new Error("the page holds no data");
    return JSON.parse(e.textContent);
  }

  async function index() {
    const d = await load();
    document.getElementById("meta").textContent = "branch " + d.branch + " · built " + d.generated;
    document.getElementById("status").remove();
    const t = el("table", { class: "suites" });
    const head = t.appendChild(el("tr"));
    for (const h of ["suite", "series", "runs", "change points", "testbeds"]) head.appendChild(el("th", {}, h));
    for (const s of d.suites) {
      const tr = t.appendChild(el("tr"));
      const td = tr.appendChild(el("td"));
      td.appendChild(el("a", { href: s.page }, s.name));
      tr.appendChild(el("td", {}, String(s.series)));
      tr.appendChild(el("td", {}, String(s.runs)));
      tr.appendChild(el("td", {}, String(s.steps)));
      tr.appendChild(el("td", {}, s.testbeds.join(", ")));
    }
    app.appendChild(t);
  }

  function draw(card, s, d) {
    const W = 400, H = 150, L = 58, R = 8, T = 8, B = 16;
    const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img" });
    // The axis in the shown unit, padded so no point sits on its edge.
    let lo = Infinity, hi = -Infinity;
    for (const p of s.p) { lo = Math.min(lo, p[2] * s.scale); hi = Math.max(hi, p[2] * s.scale); }
    if (hi === lo) { hi += Math.abs(hi) * 0.01 || 1; lo -= Math.abs(lo) * 0.01 || 1; }
    const pad = (hi - lo) * 0.08;
    lo -= pad; hi += pad;
    const n = Math.max(s.n - 1, 1);
    const X = (i) => L + (W - L - R) * i / n;
    const Y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    const yt = ticks(lo, hi);
    for (const v of yt.values) {
      const y = Y(v);
      svg.appendChild(svgEl("line", { class: "grid", x1: L, y1: y, x2: W - R, y2: y }));
      const t = svgEl("text", { class: "ytick", x: L - 4, y: y + 3, "text-anchor": "end" });
      t.textContent = num(v, yt.decimals) + " " + s.shown;
      svg.appendChild(t);
    }
    svg.appendChild(svgEl("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
    svg.appendChild(svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }));
    for (const [i, text] of timeLabels(s, d, 4)) {
      const x = X(i);
      const anchor = x < L + 30 ? "start" : x > W - R - 30 ? "end" : "middle";
      const t = svgEl("text", { class: "xtick", x: x, y: H - 3, "text-anchor": anchor });
      t.textContent = text;
      svg.appendChild(t);
    }
    for (const st of s.steps) {
      const x = X(st.i - 0.5);
      const l = svgEl("line", { class: st.kind, x1: x, y1: T, x2: x, y2: H - B });
      const title = svgEl("title", {}); title.textContent = st.kind + " " + (100 * st.change).toFixed(1) + "% at " + d.runs[st.run][0].slice(0, 7);
      l.appendChild(title);
      svg.appendChild(l);
    }
    // Re-baseline points: the runs left of the line feed no baseline.
    for (const r of s.resets || []) {
      const x = X(r.i - 0.5);
      const l = svgEl("line", { class: "reset", x1: x, y1: T, x2: x, y2: H - B });
      const title = svgEl("title", {}); title.textContent = resetText(r);
      l.appendChild(title);
      svg.appendChild(l);
    }
    const pts = s.p.map((p) => X(p[0]).toFixed(1) + "," + Y(p[2] * s.scale).toFixed(1)).join(" ");
    svg.appendChild(svgEl("polyline", { class: "line", points: pts }));
    card.appendChild(svg);
    if ((s.resets || []).length) {
      const ul = card.appendChild(el("ul", { class: "resets" }));
      for (const r of s.resets) ul.appendChild(el("li", {}, resetText(r)));
    }
    if (s.steps.length) {
      const ul = card.appendChild(el("ul", { class: "steps" }));
      for (const st of s.steps.slice(-3).reverse()) {
        const li = ul.appendChild(el("li", { class: st.kind }));
        li.appendChild(document.createTextNode((100 * st.change >= 0 ? "+" : "") + (100 * st.change).toFixed(1) + "% " + st.kind + " at "));
        li.appendChild(commitLink(d.repo_url, d.runs[st.run][0]));
        li.appendChild(document.createTextNode(" (" + val(st.before, s) + " → " + val(st.after, s) + ")"));
      }
    }
  }

  // resetText says what a re-baseline point is: who, when and why.
  function resetText(r) {
    return (r.accepted ? "↺ accepted change merged: baseline reset " : "↺ baseline reset ") + r.at.slice(0, 16).replace("T", " ") + "Z" +
      (r.who ? " by " + r.who : "") + (r.reason ? ": " + r.reason : "") + " (earlier runs feed no baseline)";
  }

  async function suite() {
    const d = await load();
    document.getElementById("meta").textContent = d.series.length + " series · " + d.runs.length + " runs · branch " + d.branch + " · built " + d.generated;
    document.getElementById("status").remove();
    const controls = app.appendChild(el("div", { class: "controls" }));
    const q = controls.appendChild(el("input", { id: "q", type: "search", placeholder: "filter benchmarks (substring or /regexp/)" }));
    q.value = params.get("q") || "";
    const bed = controls.appendChild(el("select", { id: "testbed" }));
    bed.appendChild(el("option", { value: "" }, "all testbeds"));
    for (const t of d.testbeds) bed.appendChild(el("option", { value: t }, t || "(none)"));
    bed.value = params.get("testbed") || "";
    const onlySteps = controls.appendChild(el("label"));
    const cb = onlySteps.appendChild(el("input", { id: "steps", type: "checkbox" }));
    cb.checked = params.get("steps") === "1";
    onlySteps.appendChild(document.createTextNode(" only with change points"));
    const count = controls.appendChild(el("span", { id: "count" }));
    const grid = app.appendChild(el("div", { class: "grid" }));
    const seen = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting || e.target.dataset.drawn) continue;
        e.target.dataset.drawn = "1";
        draw(e.target, d.series[e.target.dataset.i], d);
        seen.unobserve(e.target);
      }
    }, { rootMargin: "400px" });
    const cards = d.series.map((s, i) => {
      const c = el("div", { class: "card", "data-i": String(i) });
      c.appendChild(el("h3", {}, s.name));
      c.appendChild(el("div", { class: "sub" }, s.shown + ", " + s.better + " is better · " + (s.testbed || "no testbed") + " · " + s.n + " runs"));
      grid.appendChild(c);
      seen.observe(c);
      return c;
    });
    function apply() {
      let re = null;
      const v = q.value.trim();
      if (v.length > 2 && v.startsWith("/") && v.endsWith("/")) { try { re = new RegExp(v.slice(1, -1), "i"); } catch (e) { re = null; } }
      let shown = 0;
      d.series.forEach((s, i) => {
        const ok = (re ? re.test(s.name) : s.name.toLowerCase().includes(v.toLowerCase())) &&
          (!bed.value || s.testbed === bed.value) && (!cb.checked || s.steps.length > 0);
        cards[i].hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + " of " + d.series.length + " series";
      const u = new URL(location.href);
      for (const [k, val] of [["q", v], ["testbed", bed.value], ["steps", cb.checked ? "1" : ""]]) {
        if (val) u.searchParams.set(k, val); else u.searchParams.delete(k);
      }
      history.replaceState(null, "", u);
    }
    q.addEventListener("input", apply);
    bed.addEventListener("change", apply);
    cb.addEventListener("change", apply);
    apply();
    // For the scale test: when the first screen was drawn, in ms since navigation.
    requestAnimationFrame(() => { document.body.dataset.renderedMs = String(Math.round(performance.now())); });
  }

  (slug ? suite() : index()).catch(fail);
})();
