// The account's EventBridge Scheduler schedules (ListSchedules, REST-JSON GET /schedules signed for the
// "scheduler" service), with their group, state, expression and target queue; one schedule's details
// (GetSchedule) below the list when its name is clicked.
"use strict";

const Schedules = (() => {
  const MAX_PAGES = 50; // 5,000 schedules: a bound on what one page view fetches

  /** A signed (or, without credentials, unsigned) GET of the Scheduler's REST API; resolves to its JSON. */
  async function get(path, params) {
    const query = Object.keys(params || {}).sort()
      .map(k => encodeURIComponent(k) + "=" + encodeURIComponent(params[k])).join("&");
    let headers = {};
    const creds = Sqs.credentials();
    if (creds) {
      headers = await SigV4.sign({
        accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, region: creds.region,
        service: "scheduler", host: location.host, path, query, headers, body: "", method: "GET"
      });
    }
    const response = await fetch(path + (query ? "?" + query : ""), { method: "GET", headers, credentials: "omit", cache: "no-store" });
    const text = await response.text();
    let json = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch (e) {
      throw new Sqs.ApiError(response.status, "BadResponse", "unreadable answer (HTTP " + response.status + ")");
    }
    if (!response.ok) {
      const type = response.headers.get("x-amzn-ErrorType") || "Error";
      throw new Sqs.ApiError(response.status, type.replace(/:.*$/, ""), json.Message || json.message || type);
    }
    return json;
  }

  async function list() {
    const all = [];
    let token;
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await get("/schedules", token ? { MaxResults: 100, NextToken: token } : { MaxResults: 100 });
      all.push(...(out.Schedules || []));
      token = out.NextToken;
      if (!token) break;
    }
    return all;
  }

  /** The queue name of an SQS queue ARN, else the ARN. */
  function targetName(arn) {
    const parts = String(arn || "").split(":");
    return parts[2] === "sqs" && parts.length === 6 ? parts[5] : arn;
  }

  const utc = seconds => seconds ? new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z") : "";

  async function details(box, name, group) {
    const s = await attempt(() => get("/schedules/" + encodeURIComponent(name), { groupName: group }));
    if (!s) return;
    const rows = [["Name", s.Name], ["Group", s.GroupName], ["ARN", s.Arn], ["State", s.State],
      ["Expression", s.ScheduleExpression], ["Time zone", s.ScheduleExpressionTimezone],
      ["Start", utc(s.StartDate)], ["End", utc(s.EndDate)],
      ["Flexible window", s.FlexibleTimeWindow && s.FlexibleTimeWindow.Mode === "FLEXIBLE"
        ? s.FlexibleTimeWindow.MaximumWindowInMinutes + " min" : "off"],
      ["After completion", s.ActionAfterCompletion], ["Target", s.Target && s.Target.Arn],
      ["Input", s.Target && s.Target.Input], ["Created (UTC)", utc(s.CreationDate)], ["Modified (UTC)", utc(s.LastModificationDate)]];
    box.replaceChildren(el("h2", {}, "Schedule " + s.Name),
      el("table", { id: "schedule-details", "data-schedule": s.Name },
        el("tbody", {}, rows.filter(r => r[1] !== undefined && r[1] !== "").map(r => el("tr", {}, el("th", {}, r[0]), el("td", {}, r[1]))))));
  }

  /** The "Schedules" page. */
  async function view(container) {
    const body = el("tbody", {});
    const detailBox = el("section", { id: "schedule-detail" });
    const table = el("table", { id: "schedule-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Group"), el("th", {}, "State"),
        el("th", {}, "Target"), el("th", {}, "Created (UTC)"))), body);
    container.append(
      el("h1", {}, el("a", { href: "#/" }, "Queues"), " / Schedules"),
      el("section", {},
        el("p", { class: "muted" }, "EventBridge Scheduler schedules of the account (aws scheduler create-schedule): "
          + "each fires into its target queue at its times."),
        table),
      detailBox);
    const schedules = await attempt(list);
    if (!schedules) return;
    body.replaceChildren(...(schedules.length ? schedules.map(s => {
      const target = targetName(s.Target && s.Target.Arn);
      return el("tr", { "data-schedule": s.Name, "data-group": s.GroupName, "data-state": s.State },
        el("td", {}, el("a", { href: "#/schedules", class: "schedule-name", onclick: e => { e.preventDefault(); details(detailBox, s.Name, s.GroupName); } }, s.Name)),
        el("td", {}, s.GroupName), el("td", { class: "state" }, s.State),
        el("td", {}, target && !String(target).startsWith("arn:") ? el("a", { href: "#/queue/" + encodeURIComponent(target) }, target) : target),
        el("td", {}, utc(s.CreationDate)));
    }) : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No schedules yet."))]));
    table.setAttribute("data-loaded", "true"); // tests wait for this
  }

  return { view, targetName };
})();
