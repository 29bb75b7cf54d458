// Charts of a queue's CloudWatch metrics (AWS/SQS, 1-minute resolution), fetched with the
// CloudWatch API's GetMetricData over AWS JSON 1.0 and drawn as plain SVG: no chart library.
// Each chart carries its numbers in the DOM (data-* attributes and a hidden table) so that tests
// and screen readers see the data, not only the picture.
"use strict";

const Charts = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  /** What is charted, with the statistic that makes sense for it. */
  const METRICS = [
    { name: "NumberOfMessagesSent", stat: "Sum", title: "Sent" },
    { name: "NumberOfMessagesReceived", stat: "Sum", title: "Received" },
    { name: "NumberOfMessagesDeleted", stat: "Sum", title: "Deleted" },
    { name: "ApproximateNumberOfMessagesVisible", stat: "Maximum", title: "Visible" },
    { name: "ApproximateAgeOfOldestMessage", stat: "Maximum", title: "Age of oldest (s)" },
    { name: "NumberOfEmptyReceives", stat: "Sum", title: "Empty receives" }
  ];
  const RANGES = { "1h": 3600, "3h": 3 * 3600, "24h": 24 * 3600 };
  /** Time-axis tick spacing per range (seconds): about four to six labelled ticks per chart. */
  const TICKS = { "1h": 15 * 60, "3h": 30 * 60, "24h": 4 * 3600 };
  // Plot area inside the SVG: room on the left for the value scale, below for the time labels.
  const W = 340, H = 130, LEFT = 30, RIGHT = 8, TOP = 8, BOTTOM = 20;

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function format(v) {
    return Number.isInteger(v) ? String(v) : v.toFixed(2);
  }

  /** HH:MM in UTC, as CloudWatch and the rest of the console give times. */
  function hhmm(t) {
    return new Date(t * 1000).toISOString().slice(11, 16);
  }

  /** Tick times (epoch seconds) on whole multiples of `step` inside [from, to]. */
  function ticks(from, to, step) {
    const out = [];
    for (let t = Math.ceil(from / step) * step; t <= to; t += step) out.push(t);
    return out;
  }

  /** One chart: points sorted by time, over [from, to] (epoch seconds), the same range for every card. */
  function chart(metric, points, from, to, step) {
    const values = points.map(p => p[1]);
    const total = values.reduce((a, b) => a + b, 0);
    const max = Math.max(1, ...values);
    const tickTimes = ticks(from, to, step);
    const figure = el("figure", { class: "chart", "data-metric": metric.name, "data-stat": metric.stat,
      "data-points": String(points.length), "data-total": format(total), "data-max": format(values.length ? Math.max(...values) : 0),
      "data-from": String(from), "data-to": String(to), "data-ticks": tickTimes.map(hhmm).join(" ") });
    const summary = metric.stat === "Sum" ? "total " + format(total) : "max " + (values.length ? format(Math.max(...values)) : "-");
    figure.append(el("figcaption", {}, metric.title, " ", el("span", { class: "muted" }, metric.stat + " per minute, " + summary)));
    const box = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
      "aria-label": metric.title + ": " + summary + ", " + hhmm(from) + " to " + hhmm(to) + " UTC" });
    const x = t => LEFT + (W - LEFT - RIGHT) * (t - from) / Math.max(1, to - from);
    const y = v => H - BOTTOM - (H - TOP - BOTTOM) * v / max;
    // value scale: 0 and the maximum, with a faint grid line at the top
    box.append(svg("line", { x1: LEFT, y1: y(max), x2: W - RIGHT, y2: y(max), class: "grid" }));
    box.append(svg("text", { x: LEFT - 4, y: y(max) + 3, "text-anchor": "end", class: "scale" }, format(max)));
    box.append(svg("text", { x: LEFT - 4, y: y(0) + 3, "text-anchor": "end", class: "scale" }, "0"));
    // time axis: a baseline, one tick and HH:MM label per step
    const axis = svg("g", { class: "time-axis" });
    axis.append(svg("line", { x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM, class: "axis" }));
    for (const t of tickTimes) {
      axis.append(svg("line", { x1: x(t).toFixed(1), y1: H - BOTTOM, x2: x(t).toFixed(1), y2: H - BOTTOM + 4, class: "axis" }));
      axis.append(svg("text", { x: x(t).toFixed(1), y: H - 5, "text-anchor": "middle", class: "tick" }, hhmm(t)));
    }
    box.append(axis);
    if (points.length) {
      box.append(svg("polyline", { class: "line", points: points.map(([t, v]) => x(t).toFixed(1) + "," + y(v).toFixed(1)).join(" ") }));
      for (const [t, v] of points) {
        const dot = svg("circle", { cx: x(t).toFixed(1), cy: y(v).toFixed(1), r: 2, class: "dot" });
        dot.append(svg("title", {}, hhmm(t) + " UTC: " + format(v)));
        box.append(dot);
      }
    } else {
      box.append(svg("text", { x: LEFT + (W - LEFT - RIGHT) / 2, y: (H - BOTTOM) / 2 + 4, "text-anchor": "middle", class: "muted" },
        "no data in this range"));
    }
    figure.append(box);
    figure.append(el("table", { class: "chart-data", hidden: true },
      el("tbody", {}, points.map(([t, v]) => el("tr", {}, el("td", {}, new Date(t * 1000).toISOString()), el("td", { class: "num" }, format(v)))))));
    return figure;
  }

  /** Fetches the charted metrics of `queue` over the last `seconds` with one GetMetricData call. */
  async function load(queue, seconds) {
    const end = Math.ceil(Date.now() / 60000) * 60 + 60; // the minute being filled, whole
    const start = end - seconds - 60;
    const out = await Sqs.cloudwatch("GetMetricData", {
      StartTime: start, EndTime: end, ScanBy: "TimestampAscending",
      MetricDataQueries: METRICS.map((m, i) => ({ Id: "m" + i, ReturnData: true, MetricStat: {
        Metric: { Namespace: "AWS/SQS", MetricName: m.name, Dimensions: [{ Name: "QueueName", Value: queue }] },
        Period: 60, Stat: m.stat } }))
    });
    const byId = {};
    for (const r of out.MetricDataResults || []) byId[r.Id] = r;
    return { start, end, series: METRICS.map((m, i) => {
      const r = byId["m" + i] || {};
      const points = (r.Timestamps || []).map((t, j) => [Number(t), Number(r.Values[j])]).sort((a, b) => a[0] - b[0]);
      return { metric: m, points };
    }) };
  }

  /** The "Metrics" section of a queue page. */
  function section(queue) {
    const grid = el("div", { class: "charts", id: "charts" });
    const range = el("select", { id: "chart-range" }, Object.keys(RANGES).map(k => el("option", { value: k }, "last " + k)));
    async function draw() {
      grid.removeAttribute("data-loaded");
      const data = await attempt(() => load(queue, RANGES[range.value]));
      if (!data) return;
      // one range for every card: the request's [start, end], whatever data each metric has
      grid.replaceChildren(...data.series.map(s => chart(s.metric, s.points, data.start, data.end, TICKS[range.value])));
      grid.setAttribute("data-from", String(data.start));
      grid.setAttribute("data-to", String(data.end));
      grid.setAttribute("data-loaded", "true"); // tests wait for this
    }
    range.addEventListener("change", draw);
    const s = el("section", { id: "metrics" },
      el("div", { class: "row" }, el("h2", {}, "Metrics"), el("label", {}, "Range (all charts) ", range), el("button", { id: "refresh-charts", onclick: draw }, "Refresh")),
      el("p", { class: "muted" }, "CloudWatch metrics of this queue (namespace AWS/SQS), one point per minute, "
        + "from the CloudWatch API on this server (GetMetricData). A minute appears once it has ended. Times are UTC."),
      grid);
    draw();
    return s;
  }

  return { section, load, METRICS };
})();
