/* spa-bench report page, the "hard" and "robust" views (spa_bench/report/hard.py and robust.py compute
   them over all the report's episodes; this only draws them, and only when the data has them). Runs after
   report.js, in the same script element, and uses its DOM helpers (text only, never innerHTML with data). */
(function () {
  "use strict";
  const R = window.spaReport, DOC = R.doc, h = R.h, pct = R.pct;
  const $ = (id) => document.getElementById(id);
  const CATEGORY_LABELS = { long: "long-horizon", memory: "memory", ask_user: "ask the user",
    interruption: "interruptions", infeasible_ask: "infeasible (ask)", other: "other" };
  const DIMENSION_LABELS = { screen: "screen", density: "density", font_scale: "font scale", dark: "dark mode",
    navigation: "navigation", locale: "locale" };
  const VARIATION_ROWS = 30;

  const num = (x) => (x === null || x === undefined ? NaN : x);
  const distinctIn = (rows, key) => [...new Set(rows.map((r) => r[key]))];
  function swatch(agent) {
    const a = DOC.agents.indexOf(agent);
    return [h("span", { class: "swatch", style: { background: R.agentColor(a < 0 ? 0 : a) } }), agent];
  }
  function drop(d) {
    if (d === null || d === undefined) return null;
    const delta = -d, text = (delta > 0 ? "+" : delta < 0 ? "−" : "±") + Math.abs(delta).toFixed(1) + " pp";
    return h("span", { class: "delta " + (delta < 0 ? "down" : delta > 0 ? "up" : ""), title: "success rate minus the same agent's on the default device, in percentage points" }, text + " vs default");
  }
  /* A success cell: the rate and its interval bar, then k/n and the 95% interval, then the drop. */
  function rateCell(r) {
    if (!r) return "";
    const row = { success_rate: num(r.rate), success_ci_low: num(r.low), success_ci_high: num(r.high) };
    return h("div", { class: "rate", "data-k": r.successes, "data-n": r.decided },
      h("div", null, h("b", null, pct(row.success_rate)), R.ciBar(row)),
      h("div", { class: "sub" }, `${r.successes}/${r.decided}` + (r.decided !== r.episodes ? ` (${r.episodes} ep.)` : "")
        + (r.decided ? ` · 95% CI ${pct(row.success_ci_low)}–${pct(row.success_ci_high)}` : "")),
      "drop_pp" in r ? h("div", { class: "sub" }, drop(r.drop_pp)) : null);
  }
  /* Agents down, `key` values across, a rate cell in each. */
  function matrix(rows, key, label, columns) {
    const agents = distinctIn(rows, "agent");
    const cell = (a, c) => rows.find((r) => r.agent === a && r[key] === c);
    return h("div", { class: "table-wrap" }, h("table", { class: "data views-table", "data-view": key },
      h("thead", null, h("tr", null, h("th", { class: "left" }, "Agent"), columns.map((c) => h("th", { "data-col": c }, label(c))))),
      h("tbody", null, agents.map((a) => h("tr", { "data-agent": a }, h("td", { class: "left" }, swatch(a)),
        columns.map((c) => h("td", { "data-col": c }, rateCell(cell(a, c)))))))));
  }
  /* The first `left` columns are text (the agent first), the others figures. */
  function plainTable(headers, rows, attrs, left) {
    const cls = (i) => (i < (left || 1) ? "left" : "");
    return h("div", { class: "table-wrap" }, h("table", Object.assign({ class: "data views-table" }, attrs || {}),
      h("thead", null, h("tr", null, headers.map((x, i) => h("th", { class: cls(i) }, x)))),
      h("tbody", null, rows.map((r) => h("tr", { "data-agent": r[0] }, r.map((c, i) => h("td", { class: cls(i) }, i ? c : swatch(c))))))));
  }
  function share(k, n, s) { return n ? `${pct(s)} (${k}/${n})` : "–"; }

  function renderHard(v) {
    const order = ["long", "memory", "ask_user", "interruption", "infeasible_ask", "other"];
    const cats = order.filter((c) => v.categories.some((r) => r.category === c));
    const body = $("hard-body");
    body.append(h("h4", null, "Success by kind of task"), matrix(v.categories, "category", (c) => CATEGORY_LABELS[c] || c, cats),
      h("p", { class: "note" }, "The kind comes from the task's tags; a task with several counts under each, one without any is “other”. Success over decided episodes, 95% Wilson interval."));
    if (v.ask.length) {
      body.append(h("h4", null, "Asking the user"), plainTable(
        ["Agent", "Ask-task episodes", "Asked", "Questions / episode", "Other episodes", "Asked needlessly"],
        v.ask.map((r) => [r.agent, String(r.ask_episodes), share(r.asked, r.ask_episodes, r.asked_share),
          r.mean_questions === null ? "–" : r.mean_questions.toFixed(2), String(r.other_episodes),
          share(r.needless, r.other_episodes, r.needless_share)]), { "data-view": "ask" }),
      h("p", { class: "note" }, "Ask tasks: tagged ask_user or infeasible_ask, or with a simulated user. Asked: the episode had at least one ask_user question; needlessly: a question on any other task. Episodes ended by infrastructure failures are left out."));
    }
    if (v.interruptions.length) {
      const kinds = distinctIn(v.interruptions, "kind").sort((a, b) => (a === "any" ? -1 : b === "any" ? 1 : a < b ? -1 : 1));
      body.append(h("h4", null, "Interruptions that fired"), matrix(v.interruptions, "kind", (k) => (k === "any" ? "any interruption" : k.replace("_", " ")), kinds),
        h("p", { class: "note" }, "Success on episodes in which at least one of the task's interruptions fired (an agent that finished first met none)."));
    }
  }
  function renderRobust(v) {
    const body = $("robust-body"), cols = v.variations.columns;
    const variations = v.variations.rows.map((row) => Object.fromEntries(cols.map((c, i) => [c, row[i]])));
    for (const [dim, rows] of Object.entries(v.dimensions)) {
      body.append(h("h4", null, "By " + (DIMENSION_LABELS[dim] || dim)), matrix(rows, "value", (x) => x, distinctIn(rows, "value")));
    }
    const shown = variations.slice(0, VARIATION_ROWS);
    const rows = (list) => list.map((r) => [r.agent, r.variation, rateCell(r)]);
    body.append(h("h4", null, "By variation"), plainTable(["Agent", "Variation", "Success"], rows(shown), { "data-view": "variation" }, 2));
    if (variations.length > VARIATION_ROWS) {
      body.append(h("details", null, h("summary", null, `the other ${variations.length - VARIATION_ROWS} rows`),
        plainTable(["Agent", "Variation", "Success"], rows(variations.slice(VARIATION_ROWS)), null, 2)));
    }
    body.append(
      h("p", { class: "note" }, "“default”: episodes on the unvaried device (a run without --vary); a dimension left alone counts under its default. Differences are success rate minus the same agent's on the default device, shown where that agent has default episodes in this report."));
  }
  /* --repeats k: pass@k (some instance of the task succeeded) and pass^k (all did) over tasks, with
     95% Wilson intervals; the spread of per-task successes; the tasks whose outcome flips. */
  function repeatRate(r) {
    if (!r || !r.of) return "–";
    return h("div", { class: "rate", "data-k": r.passed, "data-n": r.of },
      h("div", null, h("b", null, pct(r.rate)), R.ciBar({ success_rate: r.rate, success_ci_low: r.low, success_ci_high: r.high })),
      h("div", { class: "sub" }, `${r.passed}/${r.of} · 95% CI ${pct(r.low)}–${pct(r.high)}`));
  }
  function renderRepeats(v) {
    const k = v.k, body = $("repeats-body");
    const rows = v.agents.map((a) => [a.agent, repeatRate(a.pass_at_1), repeatRate(a.pass_at_k), repeatRate(a.pass_hat_k),
      Object.entries(a.spread).map(([c, n]) => `${c}/${k}: ${n}`).join(" · "),
      a.flips.length ? h("details", null, h("summary", null, `${a.flips.length} task(s)`), a.flips.join(", ")) : "none",
      String(a.left_out)]);
    body.append(plainTable(["Agent", "pass@1 (instances)", `pass@${k} (tasks)`, `pass^${k} (tasks)`, "Tasks by successes", "Flips between repeats", "Left out"], rows, { "data-view": "repeats" }),
      h("p", { class: "note" }, `Each task ran ${k} instances. pass@${k}: the share of tasks with at least one success; pass^${k}: with all ${k} successes; pass@1: the success rate over those tasks' instances. Intervals are 95% Wilson intervals over tasks (instances over tasks for pass@1); a task with an undecided instance is left out of all three.`));
  }
  for (const [key, render] of [["hard", renderHard], ["robust", renderRobust], ["repeats", renderRepeats]]) {
    if (!DOC[key]) continue;
    render(DOC[key]);
    $(key).hidden = false;
    $("nav-" + key).hidden = false;
  }
})();
