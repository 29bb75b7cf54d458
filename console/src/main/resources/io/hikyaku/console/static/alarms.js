// The CloudWatch alarms that watch a queue (a QueueName dimension naming it, in the alarm's metric or in
// any metric of its metric math), with their state, fetched with DescribeAlarms over AWS JSON 1.0.
"use strict";

const Alarms = (() => {
  const MAX_PAGES = 20; // 2000 alarms: a bound on what one page view fetches

  /** Whether `alarm` watches `queue`. */
  function watches(alarm, queue) {
    const named = dims => (dims || []).some(d => d.Name === "QueueName" && d.Value === queue);
    if (named(alarm.Dimensions)) return true;
    return (alarm.Metrics || []).some(q => q.MetricStat && named(q.MetricStat.Metric && q.MetricStat.Metric.Dimensions));
  }

  async function load(queue) {
    const found = [];
    let token;
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await Sqs.cloudwatch("DescribeAlarms", token ? { MaxRecords: 100, NextToken: token } : { MaxRecords: 100 });
      for (const a of out.MetricAlarms || []) if (watches(a, queue)) found.push(a);
      token = out.NextToken;
      if (!token) break;
    }
    return found;
  }

  /** The "Alarms" section of a queue page. */
  function section(queue) {
    const body = el("tbody", {});
    const table = el("table", { id: "alarms" },
      el("thead", {}, el("tr", {}, el("th", {}, "Alarm"), el("th", {}, "State"), el("th", {}, "Since (UTC)"), el("th", {}, "Reason"))), body);
    async function draw() {
      table.removeAttribute("data-loaded");
      const alarms = await attempt(() => load(queue));
      if (!alarms) return;
      body.replaceChildren(...(alarms.length ? alarms.map(a => el("tr", { "data-alarm": a.AlarmName, "data-state": a.StateValue },
        el("td", {}, a.AlarmName), el("td", { class: "state" }, a.StateValue),
        el("td", {}, new Date(Number(a.StateUpdatedTimestamp) * 1000).toISOString().replace(".000Z", "Z")),
        el("td", {}, a.StateReason)))
        : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No alarm watches this queue."))]));
      table.setAttribute("data-loaded", "true"); // tests wait for this
    }
    draw();
    return el("section", { id: "queue-alarms" },
      el("div", { class: "row" }, el("h2", {}, "Alarms"), el("button", { id: "refresh-alarms", onclick: draw }, "Refresh")),
      el("p", { class: "muted" }, "CloudWatch alarms on this server whose metric names this queue (aws cloudwatch put-metric-alarm). "
        + "They are evaluated once a minute."),
      table);
  }

  return { section, watches };
})();
