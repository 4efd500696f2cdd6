/* spa-bench report page. Everything from tasks, agents and models is put in the page with textContent /
   createTextNode / setAttribute on elements we create: never innerHTML with data. The numbers of the
   leaderboard are aggregates of the per-episode rows of spa_bench.evaluation.metrics, computed with the
   same definitions as metrics.aggregate (tests compare both). */
(function () {
  "use strict";
  const DOC = JSON.parse(document.getElementById("spa-data").textContent);
  const E = DOC.episodes;
  const N = E.id.length;
  const TASKS = DOC.tasks;
  const SVGNS = "http://www.w3.org/2000/svg";
  const PALETTE = ["#2f6fde", "#e8743b", "#19a979", "#945ecf", "#ed4a7b", "#13a4b4", "#bf9b00",
    "#6c8893", "#d25d5d", "#4a9f4a"];
  const DIFF_COLORS = ["#7fb0ff", "#2f6fde", "#183f8a"];
  const LANG_COLORS = { en: "#2f6fde", zh: "#e8743b" };
  // step record fields (details.py episode_details)
  const S_INDEX = 0, S_IMG = 1, S_DESC = 2, S_MARK = 3, S_OUT = 4, S_VALID = 5, S_WHY = 6, S_RAW = 7,
    S_USAGE = 8, S_TIME = 9, S_ERR = 10, S_PKG = 11, S_REPLY = 12;

  // ---------------------------------------------------------------- DOM helpers (text only, no HTML)
  function h(tag, props, ...children) {
    const el = document.createElement(tag);
    setProps(el, props);
    append(el, children);
    return el;
  }
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
    append(el, children);
    return el;
  }
  function setProps(el, props) {
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "style") Object.assign(el.style, v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- formatting
  const isNum = (x) => typeof x === "number" && !Number.isNaN(x);
  function pct(x) { return isNum(x) ? (100 * x).toFixed(1) + "%" : "–"; }
  function num(x, d) { return isNum(x) ? x.toFixed(d) : "–"; }
  function unknown(x, f) { return isNum(x) ? f(x) : h("span", { class: "unknown", title: "unknown" }, "?"); }
  function usd(x) {
    if (!isNum(x)) return "?";
    if (x === 0) return "$0";
    return x >= 1 ? "$" + x.toFixed(2) : x >= 0.01 ? "$" + x.toFixed(3) : "$" + x.toPrecision(2);
  }
  function secs(x) { return isNum(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) + " s" : "–"; }
  function int(x) { return isNum(x) ? Math.round(x).toLocaleString("en-US") : "–"; }
  function two(main, sub) { return [h("div", null, main), h("div", { class: "sub" }, sub)]; }
  const agentColor = (a) => PALETTE[a % PALETTE.length];
  const nul = (x) => (x === null ? NaN : x);

  // ---------------------------------------------------------------- metrics (mirror of metrics.aggregate)
  function wilson(k, n, z) {
    z = z || 1.959964;
    if (n <= 0) return [NaN, NaN];
    const p = k / n, d = 1 + z * z / n, c = (p + z * z / (2 * n)) / d;
    const half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    return [k === 0 ? 0 : Math.max(0, c - half), k === n ? 1 : Math.min(1, c + half)];
  }
  function aggregate(idx) {
    let n = 0, k = 0, completed = 0, premature = 0, overdue = 0, steps = 0, ratioSum = 0, ratioN = 0;
    let time = 0, tokens = 0, cost = 0, evalCost = 0, errors = 0, infra = 0, tampered = 0;
    for (const i of idx) {
      const s = E.success[i];
      if (s !== null) {
        n++;
        if (s) { k++; if (E.step_ratio[i] !== null) { ratioSum += E.step_ratio[i]; ratioN++; } }
        premature += E.premature[i] ? 1 : 0;
        overdue += E.overdue[i] ? 1 : 0;
      }
      completed += E.completed[i]; steps += E.steps[i]; tokens += E.tokens[i];
      time += nul(E.time[i]); cost += nul(E.cost[i]); evalCost += nul(E.eval_cost[i]);
      errors += E.errors[i]; infra += E.infra[i]; tampered += E.tampered[i] ? 1 : 0;
    }
    const len = idx.length, ratio = (a, b) => (b ? a / b : NaN);
    const [low, high] = wilson(k, n);
    return {
      episodes: len, decided: n, successes: k, success_rate: ratio(k, n), success_ci_low: low,
      success_ci_high: high, completion_rate: ratio(completed, len), premature_rate: ratio(premature, n),
      overdue_rate: ratio(overdue, n), mean_step_ratio: ratioN ? ratioSum / ratioN : NaN, steps: steps,
      mean_steps: ratio(steps, len), mean_time_s: ratio(time, len), time_per_step_s: ratio(time, steps),
      mean_tokens: ratio(tokens, len), tokens_per_step: ratio(tokens, steps),
      mean_cost_usd: ratio(cost, len), cost_per_step_usd: ratio(cost, steps), cost_usd: len ? cost : 0,
      evaluator_cost_usd: len ? evalCost : 0, mean_evaluator_cost_usd: ratio(evalCost, len),
      errors: errors, infrastructure_failures: infra, tampered: tampered,
      completed: completed, premature: premature, overdue: overdue,  // counts behind the rates' intervals
    };
  }

  // ---------------------------------------------------------------- filters
  const VIEWS = [["Overall", "", ""], ["English · single-app", "en", "single_app"],
    ["English · cross-app", "en", "cross_app"], ["Chinese · single-app", "zh", "single_app"],
    ["Chinese · cross-app", "zh", "cross_app"]];
  const state = {
    lang: "", diff: "", cat: "", app: "", suite: "", sort: { key: "success_rate", desc: true },
    ep: { agent: "", task: "", verdict: "", term: "", page: 0, sort: null },
  };
  const taskOk = (t) => (!state.lang || t.lang === state.lang) && (!state.diff || String(t.diff) === state.diff)
    && (!state.cat || t.cat === state.cat) && (!state.app || t.apps.includes(+state.app))
    && (!state.suite || t.suites.includes(+state.suite));
  function selected() {
    const ok = TASKS.map(taskOk), out = [];
    for (let i = 0; i < N; i++) if (ok[E.task[i]]) out.push(i);
    return out;
  }
  function byAgent(idx) {
    const groups = DOC.agents.map(() => []);
    for (const i of idx) groups[E.agent[i]].push(i);
    return groups;
  }
  function select(label, options, value, onchange) {
    const s = h("select", { "aria-label": label, onchange: (ev) => onchange(ev.target.value) },
      options.map(([v, text]) => h("option", { value: v, selected: String(v) === String(value) }, text)));
    return h("label", null, label, s);
  }
  function distinct(values) { return [...new Set(values)].sort(); }
  function renderFilters() {
    clear($("views")).append(...VIEWS.map(([label, lang, cat]) => h("button", {
      type: "button", class: state.lang === lang && state.cat === cat ? "active" : "", role: "tab",
      onclick: () => { state.lang = lang; state.cat = cat; update(); },
    }, label)));
    const all = [["", "all"]];
    clear($("filters")).append(
      select("language", all.concat(distinct(TASKS.map((t) => t.lang)).map((l) => [l, l])), state.lang,
        (v) => { state.lang = v; update(); }),
      select("difficulty", all.concat(distinct(TASKS.map((t) => t.diff)).map((d) => [d, String(d)])),
        state.diff, (v) => { state.diff = v; update(); }),
      select("category", all.concat(distinct(TASKS.map((t) => t.cat)).map((c) => [c, c.replace("_", "-")])),
        state.cat, (v) => { state.cat = v; update(); }),
      select("app", all.concat(DOC.apps.map((p, i) => [i, (DOC.app_names[p] || p) + " (" + p + ")"])),
        state.app, (v) => { state.app = v; update(); }),
      select("suite", all.concat(DOC.suites.map((s, i) => [i, s])), state.suite,
        (v) => { state.suite = v; update(); }));
  }

  // ---------------------------------------------------------------- leaderboard
  function ciBar(row) {
    const w = 80, el = svg("svg", { width: w, height: 10, class: "bar", viewBox: `0 0 ${w} 10` },
      svg("rect", { x: 0, y: 4, width: w, height: 2, fill: "#e3e6eb" }));
    if (isNum(row.success_rate)) {
      el.append(svg("rect", { x: row.success_ci_low * w, y: 2, width: Math.max(1, (row.success_ci_high - row.success_ci_low) * w),
        height: 6, fill: "#a9c5f5", rx: 2 }), svg("rect", { x: row.success_rate * w - 1, y: 0, width: 2, height: 10, fill: "#2f6fde" }));
    }
    return el;
  }
  /* A rate of the leaderboard other than success: the rate, and under it its 95% Wilson interval. */
  function rateCI(rate, k, n) {
    if (!n) return pct(rate);
    const [lo, hi] = wilson(k, n);
    return two(pct(rate), h("span", { class: "ci-text", title: `95% Wilson interval of ${k}/${n}` }, `${pct(lo)}–${pct(hi)}`));
  }
  // reference agents (the oracle: the full task was revealed to them) are listed apart, never ranked
  const REFERENCES = new Set(DOC.references || []);
  const LB_COLUMNS = [
    { key: "rank", label: "#", title: "rank by success rate among the agents under test (references are not ranked)", cell: (r) => r.rank ? String(r.rank) : "" },
    { key: "agent", label: "Agent", left: true, cell: (r) => [h("span", { class: "swatch", style: { background: agentColor(r.a) } }), DOC.agents[r.a],
      r.reference ? h("span", { class: "badge ref", title: "a reference agent: the full task (golden script, checks) was revealed to it; not ranked" }, "reference") : null] },
    { key: "episodes", label: "Episodes", title: "decided / all episodes", cell: (r) => `${r.decided} / ${r.episodes}` },
    { key: "success_rate", label: "Success", title: "success rate with 95% Wilson interval", cell: (r) => [
      h("div", null, h("b", null, pct(r.success_rate)), ciBar(r)), h("div", { class: "sub" }, isNum(r.success_rate) ? `95% CI ${pct(r.success_ci_low)}–${pct(r.success_ci_high)}` : "")] },
    { key: "completion_rate", label: "Completion", title: "the agent said done (all episodes)", cell: (r) => rateCI(r.completion_rate, r.completed, r.episodes) },
    { key: "premature_rate", label: "Premature", title: "said done, failed (decided episodes)", cell: (r) => rateCI(r.premature_rate, r.premature, r.decided) },
    { key: "overdue_rate", label: "Overdue", title: "succeeded but hit the step limit", cell: (r) => rateCI(r.overdue_rate, r.overdue, r.decided) },
    { key: "mean_step_ratio", label: "Step ratio", title: "steps / golden steps, on successes", cell: (r) => num(r.mean_step_ratio, 2) },
    { key: "mean_steps", label: "Steps", title: "mean steps per episode", cell: (r) => num(r.mean_steps, 1) },
    { key: "mean_time_s", label: "Time", title: "mean time per episode (and per step)", cell: (r) => two(secs(r.mean_time_s), secs(r.time_per_step_s) + "/step") },
    { key: "mean_tokens", label: "Tokens", title: "mean agent tokens per episode (and per step)", cell: (r) => two(int(r.mean_tokens), int(r.tokens_per_step) + "/step") },
    { key: "mean_cost_usd", label: "Cost", title: "mean agent cost per episode (and per step)", cell: (r) => two(unknown(r.mean_cost_usd, usd), isNum(r.cost_per_step_usd) ? usd(r.cost_per_step_usd) + "/step" : "") },
    { key: "cost_usd", label: "Total cost", title: "total agent cost", cell: (r) => unknown(r.cost_usd, usd) },
    { key: "evaluator_cost_usd", label: "Eval cost", title: "evaluator (judge) cost, kept apart", cell: (r) => unknown(r.evaluator_cost_usd, usd) },
    { key: "tampered", label: "Tampered", title: "episodes whose agent changed device state behind the GUI (adb shell, push): always failed", cell: (r) => String(r.tampered) },
    { key: "infrastructure_failures", label: "Infra fail", title: "episodes ended by device/harness failures or Ctrl-C (undecided)", cell: (r) => String(r.infrastructure_failures) },
  ];
  function sortRows(rows, sort, value) {
    const dir = sort.desc ? -1 : 1;
    return rows.sort((a, b) => {
      const x = value(a, sort.key), y = value(b, sort.key);
      const xu = x === null || x === undefined || (typeof x === "number" && Number.isNaN(x));
      const yu = y === null || y === undefined || (typeof y === "number" && Number.isNaN(y));
      if (xu || yu) return xu === yu ? 0 : xu ? 1 : -1; // unknown last, both directions
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
  }
  function headerRow(columns, sort, onSort) {
    return h("thead", null, h("tr", null, columns.map((c) => h("th", {
      class: (c.left ? "left " : "") + (sort && sort.key === c.key ? "sorted" : ""), title: c.title,
      "data-key": c.key, onclick: () => onSort(c.key),
    }, c.label, sort && sort.key === c.key ? h("span", { class: "arrow" }, sort.desc ? "▼" : "▲") : null))));
  }
  function leaderboardRows(idx) {
    const rows = byAgent(idx).map((g, a) => Object.assign(aggregate(g), { a: a, agent: DOC.agents[a], reference: REFERENCES.has(a), rank: null }))
      .filter((r) => r.episodes > 0);
    sortRows(rows.filter((r) => !r.reference), { key: "success_rate", desc: true }, (r, k) => r[k])
      .forEach((r, i) => { r.rank = i + 1; });
    return rows;
  }
  // the "always infeasible" floor: what declaring infeasible at step 1 scores on the selected tasks,
  // counted from the tasks (no episode of it is run); shown beside the agents, never ranked
  function floorRow(idx) {
    const ids = new Map();
    for (const i of idx) { const t = TASKS[E.task[i]]; ids.set(t.id, ids.get(t.id) || t.floor === 1); }
    const n = ids.size, k = [...ids.values()].filter(Boolean).length;
    return { tasks: n, infeasible: k, rate: n ? k / n : NaN };
  }
  function floorBody(idx) {
    const f = floorRow(idx);
    const how = `declaring every task infeasible at step 1 passes exactly the infeasible tasks that need no question to the user: ${f.infeasible} of the ${f.tasks} distinct tasks of the selected episodes (counted from the tasks, not run; a parameterised task counts once)`;
    const cells = { agent: [h("div", null, "always infeasible ", h("span", { class: "badge floor", title: "a floor, not an agent: not ranked" }, "floor")),
        h("div", { class: "sub" }, "declaring infeasible at step 1")],
      episodes: `${f.infeasible} / ${f.tasks} tasks`, success_rate: h("b", { class: "floor-rate" }, pct(f.rate)) };
    return h("tbody", { class: "floor" }, h("tr", { "data-floor": "always-infeasible", title: how },
      LB_COLUMNS.map((c) => h("td", { class: c.left ? "left" : "", title: how }, cells[c.key] || ""))));
  }
  function renderLeaderboard(idx) {
    const rows = sortRows(leaderboardRows(idx), state.sort, (r, k) => r[k]);
    const ranked = rows.filter((r) => !r.reference), refs = rows.filter((r) => r.reference);
    const line = (r) => h("tr", { "data-agent": r.agent, class: r.reference ? "reference" : "" },
      LB_COLUMNS.map((c) => h("td", { class: c.left ? "left" : "" }, c.cell(r))));
    const table = clear($("lb-table"));
    table.append(headerRow(LB_COLUMNS, state.sort, (key) => {
      state.sort = { key: key, desc: state.sort.key === key ? !state.sort.desc : key !== "agent" && key !== "rank" };
      renderLeaderboard(selected());
    }), h("tbody", null, ranked.map(line)));
    if (refs.length) table.append(h("tbody", { class: "references" },
      h("tr", null, h("td", { class: "left sub", colspan: LB_COLUMNS.length }, "References (the full task was revealed to them; not ranked)")),
      refs.map(line)));
    if (rows.length) table.append(floorBody(idx));
    if (!rows.length) table.append(h("tbody", null, h("tr", null, h("td", { class: "left", colspan: LB_COLUMNS.length }, "No episodes match the filters."))));
    $("lb-hint").textContent = `${idx.length.toLocaleString("en-US")} episodes, ${rows.length} agents`;
    const notes = $("lb-notes");  // how several runs were put together (spa_bench.report.comparison)
    notes.replaceChildren(...(DOC.notes || []).map((note) => h("li", null, note)));
    notes.hidden = !(DOC.notes || []).length;
  }

  // ---------------------------------------------------------------- charts (hand-written SVG)
  function chart(title, body, legend) {
    return h("div", { class: "chart" }, h("h4", null, title), body, legend ? h("div", { class: "legend" }, legend) : null);
  }
  function legendItems(items) {
    return items.map(([color, label]) => h("span", { style: { marginRight: "12px" } },
      h("span", { class: "swatch", style: { background: color } }), label));
  }
  /* Axis labels under slots of `slot` px: upright and cut to the slot when they fit, else slanted
     (SLANT degrees, cut to 20 characters) with room below the axis; cut in the middle, so names that
     differ at the end (model-v1, model-v2) stay apart; the whole label is in a <title>. */
  const CHAR_W = 6.2;  // px of one character at the charts' 11 px font (a safe over-estimate)
  const SLANT = 55, SIN = Math.sin(SLANT * Math.PI / 180), COS = Math.cos(SLANT * Math.PI / 180);
  const MIN_SLOT = 20;  // px a slanted label needs beside the next: 20 * sin(55°) > a line of 11 px text
  function middle(text, n) { return text.length > n ? text.slice(0, Math.ceil((n - 1) / 2)) + "…" + text.slice(text.length - Math.floor((n - 1) / 2)) : text; }
  function slotLabels(labels, slot) {
    const fit = Math.max(3, Math.floor((slot - 6) / CHAR_W));
    const upright = labels.every((l) => l.length <= fit);
    const shown = labels.map((l) => middle(l, upright ? fit : 20));
    const room = upright ? 16 : 10 + Math.ceil(Math.max(...shown.map((l) => l.length)) * CHAR_W * SIN);
    return { upright: upright, shown: shown, room: room };
  }
  function axisLabel(text, full, x, y, upright) {
    return svg("text", upright ? { x: x, y: y, "text-anchor": "middle", class: "axis-label" }
      : { x: x, y: y, "text-anchor": "end", class: "axis-label", transform: `rotate(-${SLANT} ${x} ${y})` }, text, svg("title", null, full));
  }
  function groupedBars(groups, keys, colors, rateOf) {
    // groups: [{label, idx}], keys: values of the split; bars: success rate of each (group, key) with its
    // 95% Wilson interval drawn as a whisker (data-low / data-high: the bounds, as fractions)
    // a slot of at least MIN_SLOT px a group (then the chart scrolls sideways instead of shrinking its text);
    // slanted labels hang down-left from their tick, so the left margin makes room for the first one
    const names = groups.map((g) => g.label), n = Math.max(1, groups.length), slot = Math.max(MIN_SLOT, keys.length * 4 + 6);
    const W = Math.max(520, 42 + n * slot), first = slotLabels(names, (W - 42) / n);
    const L = first.upright ? 34 : Math.max(34, Math.ceil(first.shown[0].length * CHAR_W * COS - (W - 42) / n / 2) + 18);  // + the line's height
    const T = 8, gw = (W - L - 8) / n, labels = slotLabels(names, gw), B = 20 + labels.room, H = 184 + B;
    const bw = Math.min(26, Math.max(3, (gw - 6) / keys.length)), el = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
    const sy = (r) => H - B - (H - T - B) * r;
    if (W > 520) el.style.minWidth = W + "px";
    for (let t = 0; t <= 4; t++) {
      const y = T + (H - T - B) * (1 - t / 4);
      el.append(svg("line", { x1: L, x2: W - 4, y1: y, y2: y, stroke: "#e3e6eb" }), svg("text", { x: L - 4, y: y + 4, "text-anchor": "end" }, `${t * 25}%`));
    }
    groups.forEach((g, gi) => {
      const x0 = L + gi * gw + (gw - bw * keys.length) / 2;
      keys.forEach((key, ki) => {
        const [k, n] = rateOf(g, key), rate = n ? k / n : NaN, x = x0 + ki * bw;
        const hgt = isNum(rate) ? (H - T - B) * rate : 0, y = H - B - hgt;
        const rect = svg("rect", { x: x + 1, y: y, width: Math.max(1, bw - 2), height: Math.max(hgt, isNum(rate) ? 1 : 0), fill: colors[ki], rx: 2 },
          svg("title", null, `${g.label} · ${key}: ${n ? pct(rate) + ` (${k}/${n})` : "no decided episodes"}`));
        el.append(rect);
        if (n) {
          const [lo, hi] = wilson(k, n), cx = x + bw / 2, cap = Math.max(1.5, Math.min(5, bw / 2 - 1));
          el.append(svg("g", { class: "ci", "data-group": g.label, "data-key": String(key), "data-low": lo.toFixed(4), "data-high": hi.toFixed(4), stroke: "#1d2330", "stroke-width": 1.2 },
            svg("line", { x1: cx, x2: cx, y1: sy(hi), y2: sy(lo) }), svg("line", { x1: cx - cap, x2: cx + cap, y1: sy(hi), y2: sy(hi) }),
            svg("line", { x1: cx - cap, x2: cx + cap, y1: sy(lo), y2: sy(lo) }),
            svg("title", null, `${g.label} · ${key}: 95% CI ${pct(lo)}–${pct(hi)}`)));
        } else el.append(svg("text", { x: x + bw / 2, y: H - B - 3, "text-anchor": "middle" }, "·"));
      });
      el.append(axisLabel(labels.shown[gi], g.label, L + gi * gw + gw / 2, H - B + 14, labels.upright));
    });
    return el;
  }
  function shorten(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }
  function rateBy(idxs, pred) {
    let k = 0, n = 0;
    for (const i of idxs) if (E.success[i] !== null && pred(TASKS[E.task[i]])) { n++; k += E.success[i]; }
    return [k, n];
  }
  /* Success against mean cost, each agent's 95% interval a vertical bar. Names stand in a column at the
     right, one line each in the order of their points' heights, joined to their point by a thin line:
     they never overlap (agents at the same point included) and never leave the chart, at any count. */
  function scatter(rows) {
    const known = rows.filter((r) => isNum(r.mean_cost_usd) && isNum(r.success_rate));
    const LINE = 14, LABEL_W = 132, W = 520, L = 44, B = 34, T = 10, R = LABEL_W + 24;
    const H = Math.max(240, T + B + LINE * known.length + 4);
    const top = Math.max(0, ...known.map((r) => r.mean_cost_usd)), maxX = top > 0 ? top * 1.1 : 0.01;
    const sx = (x) => L + (W - L - R) * (x / maxX), sy = (y) => T + (H - T - B) * (1 - y);
    const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
    for (let t = 0; t <= 4; t++) el.append(svg("line", { x1: L, x2: W - R, y1: sy(t / 4), y2: sy(t / 4), stroke: "#e3e6eb" }),
      svg("text", { x: L - 4, y: sy(t / 4) + 4, "text-anchor": "end" }, `${t * 25}%`));
    for (let t = 0; t <= 4; t++) el.append(svg("text", { x: sx(maxX * t / 4), y: H - B + 16, "text-anchor": "middle" }, usd(maxX * t / 4)));
    el.append(svg("text", { x: (W - R + L) / 2, y: H - 4, "text-anchor": "middle" }, "mean agent cost per episode (USD)"));
    // label slots: wanted at the point's height, pushed down to keep LINE apart, then up to stay inside
    const order = known.map((r) => ({ r: r, y: sy(r.success_rate) })).sort((a, b) => a.y - b.y || (a.r.agent < b.r.agent ? -1 : 1));
    let next = T + 4;
    for (const o of order) { o.ly = Math.max(next, o.y); next = o.ly + LINE; }
    let limit = H - B;
    for (const o of order.slice().reverse()) { o.ly = Math.min(o.ly, limit); limit = o.ly - LINE; }
    const lx = W - LABEL_W, fit = Math.floor((LABEL_W - 4) / CHAR_W);
    for (const o of order) {
      const r = o.r, x = sx(r.mean_cost_usd), y = o.y, c = agentColor(r.a);
      el.append(svg("line", { x1: x, x2: x, y1: sy(r.success_ci_low), y2: sy(r.success_ci_high), stroke: c, "stroke-opacity": 0.4, "stroke-width": 3 }),
        svg("circle", { cx: x, cy: y, r: 5, fill: c }, svg("title", null, `${r.agent}: ${pct(r.success_rate)} (95% CI ${pct(r.success_ci_low)}–${pct(r.success_ci_high)}) at ${usd(r.mean_cost_usd)} per episode`)),
        svg("polyline", { points: `${x + 6},${y} ${lx - 10},${o.ly} ${lx - 3},${o.ly}`, fill: "none", stroke: c, "stroke-opacity": 0.5 }),
        svg("text", { x: lx, y: o.ly + 4, class: "dark point-label", "data-agent": r.agent }, middle(r.agent, fit), svg("title", null, r.agent)));
    }
    const missing = rows.filter((r) => !isNum(r.mean_cost_usd)).map((r) => r.agent);
    const notes = ["bars: 95% interval of the success rate"];
    if (known.length && top === 0) notes.push("every known cost is $0 (no priced model calls)");
    if (missing.length) notes.push(`cost unknown, not drawn: ${missing.join(", ")}`);
    return [el, notes.join(" · ")];
  }
  function quantile(sorted, q) {
    const pos = (sorted.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  }
  function stepRatioChart(groups) {
    const data = groups.map((g) => ({ label: g.label, a: g.a, v: g.idx.filter((i) => E.success[i] === 1 && E.step_ratio[i] !== null).map((i) => E.step_ratio[i]).sort((x, y) => x - y) }));
    const rowH = 30, W = 520, L = 110, R = 16, T = 6, B = 30, H = T + B + rowH * Math.max(4, data.length);
    const maxV = Math.max(2, ...data.flatMap((d) => d.v)) * 1.05, sx = (x) => L + (W - L - R) * (x / maxV);
    const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
    const ticks = maxV > 6 ? [0, 1, 2, 4, 8, 16].filter((t) => t <= maxV) : [0, 0.5, 1, 1.5, 2, 3, 4, 5, 6].filter((t) => t <= maxV);
    for (const t of ticks) el.append(svg("line", { x1: sx(t), x2: sx(t), y1: T, y2: H - B, stroke: t === 1 ? "#9aa6b8" : "#e3e6eb", "stroke-dasharray": t === 1 ? "4 3" : null }),
      svg("text", { x: sx(t), y: H - B + 14, "text-anchor": "middle" }, String(t)));
    el.append(svg("text", { x: (W + L) / 2, y: H - 3, "text-anchor": "middle" }, "steps / golden steps on successes (1 = as short as a human)"));
    data.forEach((d, r) => {
      const y = T + r * rowH + rowH / 2, c = agentColor(d.a);
      el.append(svg("text", { x: L - 6, y: y + 4, "text-anchor": "end", class: "dark" }, middle(d.label, 16), svg("title", null, d.label)));
      if (!d.v.length) { el.append(svg("text", { x: L + 4, y: y + 4 }, "no successes")); return; }
      const [q1, med, q3] = [0.25, 0.5, 0.75].map((q) => quantile(d.v, q));
      el.append(svg("line", { x1: sx(d.v[0]), x2: sx(d.v[d.v.length - 1]), y1: y, y2: y, stroke: c }),
        svg("rect", { x: sx(q1), y: y - 7, width: Math.max(2, sx(q3) - sx(q1)), height: 14, fill: c, "fill-opacity": 0.25, stroke: c },
          svg("title", null, `${d.label}: n=${d.v.length}, median ${med.toFixed(2)}, IQR ${q1.toFixed(2)}–${q3.toFixed(2)}`)),
        svg("line", { x1: sx(med), x2: sx(med), y1: y - 7, y2: y + 7, stroke: c, "stroke-width": 2.5 }));
      if (d.v.length <= 200) for (const v of d.v) el.append(svg("circle", { cx: sx(v), cy: y + ((v * 997) % 1 - 0.5) * 8, r: 1.6, fill: c, "fill-opacity": 0.6 }));
    });
    return el;
  }
  function renderCharts(idx) {
    const groups = byAgent(idx).map((g, a) => ({ label: DOC.agents[a], a: a, idx: g })).filter((g) => g.idx.length);
    const diffs = distinct(TASKS.map((t) => t.diff)), langs = distinct(TASKS.map((t) => t.lang));
    const rows = leaderboardRows(idx);
    const [sc, note] = scatter(rows);
    clear($("chart-grid")).append(
      chart("Success rate by difficulty", groupedBars(groups, diffs, diffs.map((d) => DIFF_COLORS[(d - 1) % 3]),
        (g, d) => rateBy(g.idx, (t) => t.diff === d)), legendItems(diffs.map((d) => [DIFF_COLORS[(d - 1) % 3], `difficulty ${d}`]))),
      chart("Success rate by language", groupedBars(groups, langs, langs.map((l) => LANG_COLORS[l] || "#999"),
        (g, l) => rateBy(g.idx, (t) => t.lang === l)), legendItems(langs.map((l) => [LANG_COLORS[l] || "#999", l === "zh" ? "Chinese" : l === "en" ? "English" : l]))),
      chart("Cost vs success", sc, note),
      chart("Step-ratio distribution", stepRatioChart(groups), "box: quartiles; line: range; dots: episodes"));
  }

  // ---------------------------------------------------------------- overview cards
  function renderOverview(idx) {
    const all = aggregate(idx), card = (big, small) => h("div", { class: "card" }, h("div", { class: "big" }, big), h("div", { class: "small" }, small));
    clear($("overview")).append(
      card(DOC.runs.length === 1 ? DOC.runs[0].id : `${DOC.runs.length} runs`, "run" + (DOC.runs.length === 1 ? "" : "s")),
      card(String(DOC.agents.length), "agents"), card(String(distinct(TASKS.map((t) => t.id)).length), "tasks"),
      card(N.toLocaleString("en-US"), "episodes"), card(pct(all.success_rate), `overall success (${all.successes}/${all.decided} decided` + (all.decided ? `, 95% CI ${pct(all.success_ci_low)}–${pct(all.success_ci_high)})` : ")")),
      card(String(all.infrastructure_failures), "infrastructure failures"), card(unknown(all.cost_usd, usd), isNum(all.cost_usd) ? "agent cost" : "agent cost (some prices unknown)"));
  }

  // ---------------------------------------------------------------- episode table
  const PAGE = 50;
  function verdictOf(i) { return E.success[i] === null ? "undecided" : E.success[i] ? "success" : "failure"; }
  function verdictBadge(s) {
    return s === null || s === undefined ? h("span", { class: "badge unk" }, "? undecided")
      : s ? h("span", { class: "badge ok" }, "✓ success") : h("span", { class: "badge bad" }, "✗ failure");
  }
  function termChip(term) {
    const infra = DOC.infrastructure_terms.includes(term);
    const bad = ["agent_error", "step_timeout", "episode_timeout"].includes(term);
    return h("span", { class: "chip" + (infra ? " warn" : bad ? " bad" : ""), title: infra ? "infrastructure (not the agent's fault)" : null }, term);
  }
  const EP_COLUMNS = [
    { key: "agent", label: "Agent", left: true, value: (i) => DOC.agents[E.agent[i]], cell: (i) => [h("span", { class: "swatch", style: { background: agentColor(E.agent[i]) } }), DOC.agents[E.agent[i]]] },
    { key: "task", label: "Task", left: true, value: (i) => TASKS[E.task[i]].id, cell: (i) => h("div", { class: "wrap" }, TASKS[E.task[i]].id, E.repeat[i] ? ` · r${E.repeat[i]}` : "", h("span", { class: "instr" }, TASKS[E.task[i]].instruction)) },
    { key: "lang", label: "Lang", value: (i) => TASKS[E.task[i]].lang, cell: (i) => TASKS[E.task[i]].lang },
    { key: "diff", label: "Diff", value: (i) => TASKS[E.task[i]].diff, cell: (i) => String(TASKS[E.task[i]].diff) },
    { key: "verdict", label: "Verdict", left: true, value: (i) => nul(E.success[i]), cell: (i) => verdictBadge(E.success[i]) },
    { key: "term", label: "Termination", left: true, value: (i) => DOC.terms[E.term[i]], cell: (i) => termChip(DOC.terms[E.term[i]]) },
    { key: "steps", label: "Steps", title: "steps / golden steps", value: (i) => E.steps[i], cell: (i) => `${E.steps[i]} / ${E.golden[i]}` },
    { key: "time", label: "Time", value: (i) => nul(E.time[i]), cell: (i) => secs(nul(E.time[i])) },
    { key: "tokens", label: "Tokens", value: (i) => E.tokens[i], cell: (i) => int(E.tokens[i]) },
    { key: "cost", label: "Cost", value: (i) => nul(E.cost[i]), cell: (i) => unknown(nul(E.cost[i]), usd) },
  ];
  if (DOC.runs.length > 1) EP_COLUMNS.unshift({ key: "run", label: "Run", left: true, value: (i) => DOC.runs[E.run[i]].id, cell: (i) => DOC.runs[E.run[i]].id });
  function episodeList() {
    const f = state.ep, needle = f.task.trim().toLowerCase();
    let list = selected().filter((i) => (f.agent === "" || E.agent[i] === +f.agent)
      && (!needle || TASKS[E.task[i]].id.toLowerCase().includes(needle) || TASKS[E.task[i]].instruction.toLowerCase().includes(needle))
      && (!f.verdict || verdictOf(i) === f.verdict) && (f.term === "" || E.term[i] === +f.term));
    if (f.sort) {
      const col = EP_COLUMNS.find((c) => c.key === f.sort.key);
      list = sortRows(list, f.sort, (i) => col.value(i));
    }
    return list;
  }
  function renderEpisodeFilters() {
    const all = [["", "all"]], f = state.ep, again = () => { f.page = 0; renderEpisodes(); };
    const search = h("input", { type: "search", placeholder: "task id or instruction", value: f.task, "aria-label": "task",
      oninput: (ev) => { f.task = ev.target.value; again(); } });
    clear($("ep-filters")).append(
      select("agent", all.concat(DOC.agents.map((a, i) => [i, a])), f.agent, (v) => { f.agent = v; again(); }),
      h("label", null, "task", search),
      select("verdict", all.concat([["success", "success"], ["failure", "failure"], ["undecided", "undecided"]]), f.verdict, (v) => { f.verdict = v; again(); }),
      select("termination", all.concat(DOC.terms.map((t, i) => [i, t])), f.term, (v) => { f.term = v; again(); }));
  }
  let currentList = [];
  function renderEpisodes() {
    const list = episodeList(), f = state.ep, pages = Math.max(1, Math.ceil(list.length / PAGE));
    currentList = list;
    f.page = Math.min(f.page, pages - 1);
    const rows = list.slice(f.page * PAGE, (f.page + 1) * PAGE);
    const table = clear($("ep-table"));
    table.append(headerRow(EP_COLUMNS, f.sort, (key) => {
      f.sort = { key: key, desc: f.sort && f.sort.key === key ? !f.sort.desc : false }; renderEpisodes();
    }), h("tbody", null, rows.map((i) => h("tr", { "data-episode": E.id[i], onclick: () => openEpisode(i) },
      EP_COLUMNS.map((c) => h("td", { class: c.left ? "left" : "" }, c.cell(i)))))));
    $("ep-hint").textContent = `${list.length.toLocaleString("en-US")} of ${N.toLocaleString("en-US")} (click a row to see its steps)`;
    const go = (p) => { f.page = p; renderEpisodes(); };
    clear($("ep-pager")).append(
      h("button", { type: "button", disabled: f.page === 0, onclick: () => go(f.page - 1) }, "‹ prev"),
      `page ${f.page + 1} of ${pages}`,
      h("button", { type: "button", disabled: f.page >= pages - 1, onclick: () => go(f.page + 1) }, "next ›"));
  }

  // ---------------------------------------------------------------- episode details (lazy)
  const chunkCache = new Map(), pendingChunks = new Map();
  // Detail files beside the report call this (see build.write_details).
  window.spaDetails = (c, text) => { const done = pendingChunks.get(c); if (done) done(text); };
  function chunkText(c) {
    const el = document.getElementById("spa-chunk-" + c);
    if (el) return Promise.resolve(el.textContent);
    return new Promise((resolve, reject) => {
      const src = `${DOC.details.dir}/details-${String(c).padStart(5, "0")}.js`;
      const tag = document.createElement("script");
      pendingChunks.set(c, (text) => { pendingChunks.delete(c); resolve(text); });
      tag.addEventListener("error", () => reject(new Error(`cannot load ${src}: keep the report's _files folder beside it (or build it with --embed)`)));
      tag.src = src;
      document.head.appendChild(tag);
    });
  }
  function loadChunk(c) {
    if (!chunkCache.has(c)) {
      chunkCache.set(c, chunkText(c).then(async (text) => {
        if (typeof DecompressionStream === "undefined") throw new Error("this browser cannot decompress the episode details (DecompressionStream)");
        const bin = atob(text.trim()), bytes = new Uint8Array(bin.length);
        for (let j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        return JSON.parse(await new Response(stream).text());
      }));
      chunkCache.get(c).catch(() => chunkCache.delete(c));
    }
    return chunkCache.get(c);
  }
  function details(i) { return loadChunk(E.chunk[i]).then((c) => c[E.pos[i]]); }
  let openIndex = null;
  function openEpisode(i) {
    openIndex = i;
    $("episode-view").hidden = false;
    document.body.style.overflow = "hidden";
    const t = TASKS[E.task[i]];
    clear($("ev-title")).append(h("span", { class: "swatch", style: { background: agentColor(E.agent[i]) } }),
      `${DOC.agents[E.agent[i]]} · ${t.id}`, E.repeat[i] ? ` · r${E.repeat[i]}` : "", " ", verdictBadge(E.success[i]), " ", termChip(DOC.terms[E.term[i]]));
    const body = clear($("ev-body"));
    body.append(h("p", { class: "note" }, "loading…"));
    if (history.replaceState) history.replaceState(null, "", "#episode=" + encodeURIComponent(E.id[i]));
    details(i).then((d) => { if (openIndex === i) renderEpisode(clear(body), i, d); })
      .catch((err) => { if (openIndex === i) clear(body).append(h("p", { class: "note" }, "Cannot show this episode: " + err.message)); });
  }
  function closeEpisode() {
    openIndex = null;
    $("episode-view").hidden = true;
    document.body.style.overflow = "";
    if (history.replaceState) history.replaceState(null, "", "#episodes");
  }
  function step(delta) {
    const pos = currentList.indexOf(openIndex);
    const next = currentList[pos + delta];
    if (next !== undefined) openEpisode(next);
  }
  function meta(pairs) {
    return h("dl", { class: "meta" }, pairs.filter((p) => p[1] !== null && p[1] !== undefined && p[1] !== "")
      .map(([k, v]) => [h("dt", null, k), h("dd", null, v)]));
  }
  function usageText(u) {
    if (!u) return "";
    const [p, c, calls, cost] = u;
    return calls || p || c ? `${int(p + c)} tokens (${int(p)} in, ${int(c)} out), ${calls} call${calls === 1 ? "" : "s"}, ${usd(cost === null ? NaN : cost)}` : "no model calls";
  }
  function screenshot(img, mark, dev, base) {
    const wrap = h("div", { class: "shot" });
    if (!img || !img[0]) { wrap.append(h("div", { class: "missing" }, "no screenshot")); return wrap; }
    const w = img[1] || dev.screen_width || 1080, hgt = img[2] || dev.screen_height || 2400;
    const im = h("img", { src: (base || "") + img[0], alt: "screenshot", loading: "lazy", width: w, height: hgt });
    im.addEventListener("error", () => { wrap.replaceChildren(h("div", { class: "missing" }, "screenshot not found: " + (base || "") + img[0])); });
    wrap.append(im);
    if (mark && mark.k) wrap.append(drawMark(mark, w, hgt));
    return wrap;
  }
  function arrow(x1, y1, x2, y2, size, color) {
    const a = Math.atan2(y2 - y1, x2 - x1), p = (d) => [x2 - size * Math.cos(a + d), y2 - size * Math.sin(a + d)];
    const [l, r] = [p(0.45), p(-0.45)];
    return [svg("line", { x1: x1, y1: y1, x2: x2, y2: y2, stroke: color, "stroke-width": size / 4, "stroke-linecap": "round" }),
      svg("polygon", { points: `${x2},${y2} ${l[0]},${l[1]} ${r[0]},${r[1]}`, fill: color }),
      svg("circle", { cx: x1, cy: y1, r: size / 3, fill: color, "fill-opacity": 0.6 })];
  }
  function pill(text, x, y, size, w) {
    const label = shorten(text, 40), width = Math.min(w * 0.94, label.length * size * 0.62 + size);
    const x0 = Math.max(w * 0.03, Math.min(x - width / 2, w * 0.97 - width));
    return [svg("rect", { x: x0, y: y - size * 1.1, width: width, height: size * 1.6, rx: size * 0.5, fill: "#1d2330", "fill-opacity": 0.85 }),
      svg("text", { x: x0 + width / 2, y: y, "text-anchor": "middle", "font-size": size, fill: "#fff", "font-family": "sans-serif" }, label)];
  }
  function drawMark(m, w, hgt) {
    const el = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, preserveAspectRatio: "none" }), u = w / 24, red = "#ff3b3b";
    if (m.box) el.append(svg("rect", { x: m.box[0], y: m.box[1], width: m.box[2] - m.box[0], height: m.box[3] - m.box[1], fill: "none", stroke: "#ffb020", "stroke-width": u / 5 }));
    if (m.k === "tap" || m.k === "long_press") {
      el.append(svg("circle", { cx: m.x, cy: m.y, r: u * 1.1, fill: red, "fill-opacity": 0.3, stroke: red, "stroke-width": u / 5 }),
        svg("circle", { cx: m.x, cy: m.y, r: u / 4, fill: red }));
      if (m.k === "long_press") el.append(svg("circle", { cx: m.x, cy: m.y, r: u * 1.7, fill: "none", stroke: red, "stroke-width": u / 6, "stroke-dasharray": `${u / 2} ${u / 3}` }));
    } else if (m.k === "swipe") {
      el.append(...arrow(m.x1, m.y1, m.x2, m.y2, u * 1.4, red));
    } else if (m.k === "type") {
      const y = m.box ? Math.min(hgt - u, m.box[3] + u * 1.8) : hgt * 0.6;
      el.append(...pill("⌨ " + m.text, m.box ? (m.box[0] + m.box[2]) / 2 : w / 2, y, u * 0.9, w));
    } else if (m.k === "label") {
      el.append(...pill(m.text, w / 2, u * 2.4, u * 0.9, w));
    }
    return el;
  }
  function stepCard(s, dev, base) {
    const [obs, agent, exec, model] = s[S_TIME];
    const out = s[S_OUT];
    return h("div", { class: "step" + (s[S_VALID] ? "" : " invalid"), "data-step": s[S_INDEX] },
      h("div", { class: "head" }, h("span", { class: "n" }, `step ${s[S_INDEX]}`), h("span", { class: "pkg", title: s[S_PKG] || "" }, s[S_PKG] || "")),
      screenshot(s[S_IMG], s[S_MARK], dev, base),
      h("div", { class: "act" }, s[S_VALID] ? s[S_DESC] || "(no action)" : h("span", { style: { color: "#d0383b" } }, "invalid: " + (s[S_WHY] || ""))),
      s[S_RAW] ? h("pre", null, s[S_RAW]) : null,
      out ? h("pre", { class: "thought" }, out) : null,
      s[S_REPLY] ? h("div", { class: "reply" }, h("b", null, "user: "), s[S_REPLY]) : null,
      s[S_ERR] ? h("pre", null, `${s[S_ERR].kind} error ${s[S_ERR].type}: ${s[S_ERR].message}`) : null,
      h("div", { class: "figures" }, usageText(s[S_USAGE]), h("br"),
        `agent ${secs(agent)}${model !== null ? ` (model ${secs(model)})` : ""} · observe ${secs(obs)} · act ${secs(exec)}`));
  }
  function renderVerdict(v) {
    return h("div", { class: "verdict" }, h("b", null, v.evaluator), " ", verdictBadge(v.success),
      v.usage && v.usage[2] ? h("span", { class: "ci" }, usageText(v.usage)) : null,
      h("ul", null, v.evidence.map((e) => h("li", null, e.summary, e.step !== null ? ` (step ${e.step})` : "",
        Object.keys(e.details || {}).length ? h("details", null, h("summary", null, "details"), h("pre", null, JSON.stringify(e.details, null, 1))) : null))),
      v.error ? h("pre", null, `${v.error.type}: ${v.error.message}`) : null);
  }
  function renderEpisode(body, i, d) {
    const t = TASKS[E.task[i]], run = DOC.runs[E.run[i]];
    append(body, [h("div", { class: "instruction" }, t.instruction),
      meta([["episode", d.id], ["run", run.id], ["status", d.status], ["answer", d.answer],
        ["success", E.reason[i] + (E.source[i] ? ` (decided by ${E.source[i]})` : "")],
        ["task", `${t.id} · ${t.lang} · difficulty ${t.diff} · ${t.cat.replace("_", "-")} · ${t.apps.map((a) => DOC.apps[a]).join(", ")} · golden ${t.golden} steps`],
        ["key components", t.components.length ? t.components.join(" · ") : null],
        ["checks", t.checks.length ? t.checks.join(" · ") : null],
        ["steps", `${E.steps[i]} (golden ${E.golden[i]})`], ["time", `${secs(d.timings[1])} (setup ${secs(d.timings[0])}, agent ${secs(d.timings[2])}, device ${secs(d.timings[3])})`],
        ["agent usage", usageText(d.usage)], ["device", [d.device.serial, d.device.model, d.device.android_release && `Android ${d.device.android_release}`, d.device.locale].filter(Boolean).join(" · ")],
        ["apps substituted", Object.entries(d.package_map || {}).map(([named, installed]) => `${named} → ${installed}`).join(" · ") || null],
        ["attempt", d.attempt > 1 ? `${d.attempt} (after infrastructure retries)` : null], ["seed", d.seed],
        ["parameters", Object.keys(d.params || {}).length ? JSON.stringify(d.params) : null], ["task file", d.task_file],
        ["device variation", d.variation ? Object.entries(d.variation).map(([k, v]) => `${k} ${v}`).join(" · ") : null],
        ["interruptions fired", d.fired && d.fired.length ? h("ul", { class: "fired" }, d.fired.map(([n, text]) => h("li", null, `#${n} ${text}`))) : null]]),
      d.dialogue && d.dialogue.length ? [h("h4", null, `Questions to the user (${d.dialogue.length})`),
        h("ol", { class: "dialogue" }, d.dialogue.map(([at, q, reply, rule]) => h("li", { "data-step": at }, h("div", null, h("b", null, `step ${at}, agent: `), q),
          h("div", null, h("b", null, "user: "), reply, h("span", { class: "ci" }, rule === null ? "(no rule matched)" : `(reply rule ${rule})`)))))] : null,
      h("h4", null, "Verdicts"), d.verdicts.length ? d.verdicts.map(renderVerdict) : h("p", { class: "note" }, "no verdicts"),
      d.errors.length ? [h("h4", null, "Errors"), d.errors.map((e) => h("div", { class: "verdict" }, termChip(e.kind), " ", h("b", null, e.type), e.step !== null ? ` (step ${e.step})` : "", h("pre", null, e.message),
        e.traceback ? h("details", null, h("summary", null, "traceback"), h("pre", null, e.traceback)) : null))] : null,
      d.audit && (d.audit.commands.length || !d.audit.complete) ? [h("h4", null, d.audit.tampered ? "Shell audit: tampered (changed state behind the GUI; the episode failed)" : "Shell audit"),
        h("p", { class: "note" }, d.audit.source === "device" ? "every command the agent sent the device besides its actions" : "only what passed through the harness (this device keeps no record)"),
        d.audit.commands.length ? h("pre", null, d.audit.commands.map(([ch, cmd, kind, changes, why]) => `${changes ? "✗" : "·"} [${ch}] ${cmd}  (${kind}: ${why})`).join("\n")) : null] : null,
      Object.keys(d.state || {}).length ? [h("h4", null, "Captured device state"), h("pre", null, Object.entries(d.state).map(([k, v]) => `$ ${k}\n${v}`).join("\n\n"))] : null,
      h("h4", null, `Steps (${d.steps.length})`),
      h("div", { class: "steps" }, d.steps.map((s) => stepCard(s, d.device, d.images)),
        d.final ? h("div", { class: "step", "data-step": "final" }, h("div", { class: "head" }, h("span", null, "final screen")), screenshot(d.final, null, d.device, d.images)) : null)]);
  }

  // ---------------------------------------------------------------- runs and errors
  function kv(pairs) {
    return h("table", { class: "kv" }, h("tbody", null, pairs.filter((p) => p[1] !== null && p[1] !== undefined && p[1] !== "")
      .map(([k, v]) => h("tr", null, h("td", null, k), h("td", null, v)))));
  }
  function simpleTable(headers, rows) {
    return h("div", { class: "table-wrap" }, h("table", { class: "data" }, h("thead", null, h("tr", null, headers.map((x) => h("th", { class: "left" }, x)))),
      h("tbody", null, rows.map((r) => h("tr", null, r.map((c) => h("td", { class: "left" }, c)))))));
  }
  /* A run's verification (spa-bench bundle verify --record-in / --unpack): verified = replayed with every
     episode the same; re-scored = hashes and offline re-scoring agree, not replayed; differs. */
  function verificationBadge(v) {
    if (!v) return h("span", { class: "badge unk", title: "no spa-bench bundle verify record in this run folder" }, "not verified");
    const cls = v.status === "verified" ? "ok" : v.status === "differs" ? "bad" : "unk";
    const label = v.status === "re-scored" ? "re-scored only" : v.status;
    return h("span", { class: "badge " + cls, "data-badge": v.status, title: v.line }, label);
  }
  function renderRuns() {
    const body = clear($("runs-body"));
    for (const run of DOC.runs) {
      const m = run.manifest, s = run.summary;
      body.append(h("div", { class: "run" }, h("h3", null, run.id, " ", verificationBadge(run.verification)),
        run.verification ? h("p", { class: "note", "data-verification": run.verification.status },
          `spa-bench bundle verify: ${run.verification.line}` + (run.verification.checked_at ? ` (${run.verification.checked_at})` : "")) : null,
        h("div", { class: "run-grid" },
          kv([["created", m.created_at], ["folder", run.dir], ["spa-bench", m.spa_bench_version], ["git revision", m.git_revision],
            ["python", m.python], ["platform", m.platform], ["command", (m.command || []).join(" ")], ["tasks", `${m.tasks_root} (${m.task_files} files)`],
            ["repeats", String(m.repeats)], ["seed", String(m.seed)],
            ["instances", m.instance_seed_commitment ? `drawn from a secret seed, commitment ${m.instance_seed_commitment}` : "drawn from the seed"],
            ["hashes", m.source_sha256 ? `source ${m.source_sha256.slice(0, 16)}…, phone image ${(m.phone_image_sha256 || "?").slice(0, 16)}…` : null], ["settings", h("pre", null, JSON.stringify(m.settings, null, 1))],
            ["packages", Object.entries(m.packages || {}).map(([k, v]) => `${k} ${v}`).join(", ")]]),
          s ? kv([["started", s.started_at], ["finished", s.finished_at], ["interrupted", s.interrupted ? "yes (Ctrl-C)" : "no"],
            ["planned", String(s.planned)], ["finished episodes", String(s.finished)],
            ["undone", s.undone.length ? `${s.undone.length}: ${s.undone.slice(0, 20).join(", ")}${s.undone.length > 20 ? " …" : ""} (resume with spa-bench run --resume)` : "none"],
            ["failed on every device", Object.keys(s.failed).length ? Object.entries(s.failed).map(([k, v]) => `${k}: ${v}`).join("\n") : "none"],
            ["removed devices", Object.keys(s.removed_devices).length ? Object.entries(s.removed_devices).map(([k, v]) => `${k}: ${v}`).join("\n") : "none"]])
            : h("p", { class: "note" }, "no summary.json: the run did not end (still running, or killed)")),
        h("h4", null, "Agents"), simpleTable(["name", "reference", "arguments"], m.agents.map((a) => [a.name, a.reference, JSON.stringify(a.args)])),
        h("h4", null, "Devices"), simpleTable(["host", "serial", "kind", "model", "Android", "SDK", "screen", "locale"], m.devices.map((d) => [d.host || "", d.serial, d.kind, d.model || "", d.android_release || "", d.sdk === null ? "" : String(d.sdk),
          d.screen_width ? `${d.screen_width}×${d.screen_height}` : "", d.locale || ""]))));
    }
  }
  function episodeLinks(list) {
    return list.slice(0, 12).map((i) => h("button", { type: "button", class: "linkish", onclick: () => openEpisode(i) }, E.id[i]))
      .concat(list.length > 12 ? [`… ${list.length - 12} more`] : []);
  }
  function renderErrors(idx) {
    const terms = DOC.terms, byTerm = new Map();
    for (const i of idx) { const t = terms[E.term[i]]; if (!byTerm.has(t)) byTerm.set(t, []); byTerm.get(t).push(i); }
    const infraTerms = [...byTerm.keys()].filter((t) => DOC.infrastructure_terms.includes(t));
    const agentTerms = [...byTerm.keys()].filter((t) => ["agent_error", "step_timeout", "episode_timeout"].includes(t));
    const groups = (kinds) => DOC.errors.filter((g) => kinds.includes(g.kind));
    const groupRows = (gs) => gs.length ? simpleTable(["kind", "type", "count", "example", "episodes"], gs.map((g) => [g.kind, g.type, String(g.count), g.message, h("span", null, episodeLinks(g.episodes))]))
      : h("p", { class: "note" }, "none");
    const runProblems = [];
    DOC.runs.forEach((r) => {
      const s = r.summary;
      if (s) {
        for (const [k, v] of Object.entries(s.failed)) runProblems.push([r.id, "gave up (device failures)", `${k}: ${v}`]);
        for (const [k, v] of Object.entries(s.removed_devices)) runProblems.push([r.id, "device removed", `${k}: ${v}`]);
        if (s.undone.length) runProblems.push([r.id, "not run", `${s.undone.length} episode(s) left to resume`]);
      }
      for (const [k, v] of Object.entries(r.unreadable)) runProblems.push([r.id, "unreadable log", `${k}: ${v}`]);
    });
    const termTable = simpleTable(["agent"].concat(terms), DOC.agents.map((a, ai) => [a].concat(terms.map((t) => String((byTerm.get(t) || []).filter((i) => E.agent[i] === ai).length || "")))));
    clear($("errors-body")).append(h("div", { class: "err-grid" },
      h("div", { class: "err-panel" }, h("h4", null, "Infrastructure (not counted against agents)"),
        infraTerms.length ? infraTerms.map((t) => h("p", null, termChip(t), ` ${byTerm.get(t).length} episode(s): `, episodeLinks(byTerm.get(t)))) : h("p", { class: "note" }, "no episode ended by a device or harness failure"),
        runProblems.length ? simpleTable(["run", "what", "detail"], runProblems) : null,
        groupRows(groups(["device", "harness"]))),
      h("div", { class: "err-panel" }, h("h4", null, "Agent failures"),
        agentTerms.length ? agentTerms.map((t) => h("p", null, termChip(t), ` ${byTerm.get(t).length} episode(s): `, episodeLinks(byTerm.get(t)))) : h("p", { class: "note" }, "no agent errors or timeouts"),
        groupRows(groups(["agent", "timeout"])), h("h4", null, "Evaluator errors"), groupRows(groups(["evaluator"])))),
      h("h4", null, "How episodes ended (current filter)"), termTable);
  }

  // ---------------------------------------------------------------- wiring
  function update() {
    renderFilters();
    const idx = selected();
    renderOverview(idx); renderLeaderboard(idx); renderCharts(idx); renderEpisodes(); renderErrors(idx);
  }
  $("generated").textContent = `spa-bench ${DOC.spa_bench_version} · generated ${DOC.generated}`;
  $("ev-close").addEventListener("click", closeEpisode);
  $("ev-prev").addEventListener("click", () => step(-1));
  $("ev-next").addEventListener("click", () => step(1));
  $("episode-view").addEventListener("click", (ev) => { if (ev.target === $("episode-view")) closeEpisode(); });
  document.addEventListener("keydown", (ev) => {
    if (openIndex === null) return;
    if (ev.key === "Escape") closeEpisode();
    else if (ev.key === "ArrowLeft") step(-1);
    else if (ev.key === "ArrowRight") step(1);
  });
  renderEpisodeFilters(); renderRuns(); update();
  /* Deep link: #episode=<episode-id> (e.g. #episode=oracle__notes_create_en__r0); the older
     #episode=<row index> is still accepted. */
  function episodeFromHash() {
    const m = /^#episode=(.+)$/.exec(location.hash);
    if (!m) return -1;
    let key = m[1];
    try { key = decodeURIComponent(key); } catch (e) { /* keep it as written */ }
    const byId = E.id.indexOf(key);
    return byId >= 0 ? byId : /^\d+$/.test(key) && +key < N ? +key : -1;
  }
  function followHash() { const i = episodeFromHash(); if (i >= 0 && i !== openIndex) openEpisode(i); }
  window.addEventListener("hashchange", followHash);
  followHash();
  window.spaReport = { doc: DOC, h: h, pct: pct, agentColor: agentColor, ciBar: ciBar, aggregate: aggregate, wilson: wilson, state: state, selected: selected, update: update,
    openEpisode: openEpisode, episodeList: episodeList, leaderboardRows: leaderboardRows };
})();
