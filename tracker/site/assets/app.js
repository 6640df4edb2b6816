// perfgate dashboard: loads data/index.json (the index) or data/SLUG.json
// (a suite page) and draws one SVG line chart per series, lazily as cards
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
  function fmt(v) { return Number(v).toPrecision(4); }

  async function load(path) {
    const r = await fetch(path);
    if (!r.ok) throw new Error(path + ": HTTP " + r.status);
    return r.json();
  }

  async function index() {
    const d = await load("data/index.json");
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
    const W = 400, H = 150, L = 44, R = 6, T = 8, B = 16;
    const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img" });
    let lo = Infinity, hi = -Infinity;
    for (const p of s.p) { lo = Math.min(lo, p[2]); hi = Math.max(hi, p[2]); }
    if (hi === lo) { hi += Math.abs(hi) * 0.01 || 1; lo -= Math.abs(lo) * 0.01 || 1; }
    const n = Math.max(s.n - 1, 1);
    const X = (i) => L + (W - L - R) * i / n;
    const Y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    svg.appendChild(svgEl("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
    svg.appendChild(svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }));
    for (const [v, y] of [[hi, T + 8], [lo, H - B]]) {
      const t = svgEl("text", { x: 2, y: y }); t.textContent = fmt(v); svg.appendChild(t);
    }
    const first = svgEl("text", { x: L, y: H - 3 }); first.textContent = d.runs[s.p[0][1]][1].slice(0, 10); svg.appendChild(first);
    const last = svgEl("text", { x: W - R - 58, y: H - 3 }); last.textContent = d.runs[s.p[s.p.length - 1][1]][1].slice(0, 10); svg.appendChild(last);
    for (const st of s.steps) {
      const x = X(st.i - 0.5);
      const l = svgEl("line", { class: st.kind, x1: x, y1: T, x2: x, y2: H - B });
      const title = svgEl("title", {}); title.textContent = st.kind + " " + (100 * st.change).toFixed(1) + "% at " + d.runs[st.run][0].slice(0, 7);
      l.appendChild(title);
      svg.appendChild(l);
    }
    const pts = s.p.map((p) => X(p[0]).toFixed(1) + "," + Y(p[2]).toFixed(1)).join(" ");
    svg.appendChild(svgEl("polyline", { class: "line", points: pts }));
    card.appendChild(svg);
    if (s.steps.length) {
      const ul = card.appendChild(el("ul", { class: "steps" }));
      for (const st of s.steps.slice(-3).reverse()) {
        const li = ul.appendChild(el("li", { class: st.kind }));
        li.appendChild(document.createTextNode((100 * st.change >= 0 ? "+" : "") + (100 * st.change).toFixed(1) + "% " + st.kind + " at "));
        li.appendChild(commitLink(d.repo_url, d.runs[st.run][0]));
        li.appendChild(document.createTextNode(" (" + fmt(st.before) + " → " + fmt(st.after) + " " + s.unit + ")"));
      }
    }
  }

  async function suite() {
    const d = await load("data/" + slug + ".json");
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
      c.appendChild(el("div", { class: "sub" }, s.unit + ", " + s.better + " is better · " + (s.testbed || "no testbed") + " · " + s.n + " runs"));
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
