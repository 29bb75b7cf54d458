// The console's pages. Everything is built with DOM calls (never innerHTML), so queue names,
// bodies and attributes from the server are always shown as text.
"use strict";

const $ = id => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

function showError(e) {
  const box = $("error");
  if (!e) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = e.type ? e.type + ": " + e.message : String(e.message || e);
  box.hidden = false;
  // Unsigned calls to a server with authentication on are refused with 403 (AccessDeniedException,
  // as Amazon SQS answers a request without a signature): that too asks for credentials.
  if (e.needsSignIn || (e.status === 403 && !Sqs.credentials())) openSignIn();
}

/** Runs an action, showing its failure; returns its result or undefined. */
async function attempt(action) {
  try {
    const result = await action();
    showError(null);
    return result;
  } catch (e) {
    showError(e);
    return undefined;
  }
}

function confirmDialog(text) {
  return new Promise(resolve => {
    const dialog = $("confirm-dialog");
    $("confirm-text").textContent = text;
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

// ---- sign-in -----------------------------------------------------------------------------

function openSignIn() {
  const dialog = $("sign-in-dialog");
  if (!dialog.open) dialog.showModal();
}

function renderWho() {
  const creds = Sqs.credentials();
  $("who").textContent = creds ? "signed in as " + creds.accessKeyId + " (" + creds.region + ")" : "unsigned (default account)";
  $("sign-in-button").hidden = !!creds;
  $("sign-out-button").hidden = !creds;
}

function setUpSignIn() {
  $("sign-in-button").addEventListener("click", openSignIn);
  $("sign-in-cancel").addEventListener("click", () => $("sign-in-dialog").close());
  $("sign-out-button").addEventListener("click", () => { Sqs.signOut(); renderWho(); route(); });
  $("sign-in-form").addEventListener("submit", async event => {
    event.preventDefault(); // the dialog stays open until the server accepts the signature
    const id = $("access-key-id").value.trim();
    const secret = $("secret-access-key").value;
    const region = $("region").value.trim();
    const problem = $("sign-in-error");
    problem.hidden = true;
    try {
      await Sqs.verify(id, secret, region);
    } catch (e) {
      problem.textContent = e.type ? e.type + ": " + e.message : String(e.message || e);
      problem.hidden = false;
      return;
    }
    Sqs.signIn(id, secret, region);
    $("secret-access-key").value = "";
    $("sign-in-dialog").close();
    renderWho();
    route();
  });
}

// ---- queue list --------------------------------------------------------------------------

const COUNTS = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"];

function queueName(url) {
  return decodeURIComponent(url.substring(url.lastIndexOf("/") + 1));
}

async function listQueueUrls() {
  const urls = [];
  let token;
  for (let page = 0; page < 10; page++) { // at most 10 000 queues shown
    const out = await Sqs.sqs("ListQueues", token ? { MaxResults: 1000, NextToken: token } : { MaxResults: 1000 });
    urls.push(...(out.QueueUrls || []));
    token = out.NextToken;
    if (!token) break;
  }
  return urls;
}

async function queuesView(view) {
  const body = el("tbody");
  const nameInput = el("input", { id: "new-queue-name", placeholder: "queue name", required: true });
  const fifoBox = el("input", { id: "new-queue-fifo", type: "checkbox" });
  view.append(
    el("h1", {}, "Queues"),
    el("section", {},
      el("h2", {}, "Create queue"),
      el("div", { class: "row" }, nameInput, el("label", {}, fifoBox, " FIFO"),
        el("button", { id: "create-queue", class: "primary", onclick: async () => {
          let name = nameInput.value.trim();
          const attributes = {};
          if (fifoBox.checked) {
            attributes.FifoQueue = "true";
            if (!name.endsWith(".fifo")) name += ".fifo";
          }
          if (await attempt(() => Sqs.sqs("CreateQueue", { QueueName: name, Attributes: attributes }))) {
            nameInput.value = "";
            route();
          }
        } }, "Create"))),
    el("section", {},
      el("div", { class: "row" }, el("h2", {}, "Queues of the account"),
        el("button", { id: "refresh", onclick: () => route() }, "Refresh")),
      el("table", { id: "queue-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Type"),
          el("th", { class: "num" }, "Available"), el("th", { class: "num" }, "In flight"),
          el("th", { class: "num" }, "Delayed"), el("th", {}, ""))),
        body)));
  const urls = await attempt(listQueueUrls);
  if (!urls) return;
  if (urls.length === 0) {
    body.append(el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No queues yet.")));
  }
  for (const url of urls) {
    const name = queueName(url);
    const cells = COUNTS.map(() => el("td", { class: "num" }, "…"));
    body.append(el("tr", { "data-queue": name },
      el("td", {}, el("a", { href: "#/queue/" + encodeURIComponent(name) }, name)),
      el("td", {}, name.endsWith(".fifo") ? "FIFO" : "Standard"),
      cells,
      el("td", {}, el("button", { class: "delete-queue", onclick: async () => {
        if (await confirmDialog("Delete queue " + name + " and all its messages?")) {
          if (await attempt(() => Sqs.sqs("DeleteQueue", { QueueUrl: url })) !== undefined) route();
        }
      } }, "Delete"))));
    Sqs.sqs("GetQueueAttributes", { QueueUrl: url, AttributeNames: COUNTS }).then(out => {
      COUNTS.forEach((n, i) => { cells[i].textContent = (out.Attributes || {})[n] ?? "-"; });
    }, e => cells.forEach(c => { c.textContent = e.type || "error"; }));
  }
}

// ---- one queue ---------------------------------------------------------------------------

const EDITABLE = ["DelaySeconds", "MaximumMessageSize", "MessageRetentionPeriod", "ReceiveMessageWaitTimeSeconds",
  "VisibilityTimeout", "RedrivePolicy", "RedriveAllowPolicy", "Policy", "ContentBasedDeduplication",
  "DeduplicationScope", "FifoThroughputLimit", "SqsManagedSseEnabled", "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds"];

function tabs(name, active) {
  const base = "#/queue/" + encodeURIComponent(name);
  const tab = (id, label, href) => el("a", { id: "tab-" + id, href, class: active === id ? "active" : "" }, label);
  return el("nav", { class: "tabs" }, tab("details", "Details", base), tab("messages", "Messages", base + "/messages"),
    tab("redrive", "Dead-letter redrive", base + "/redrive"));
}

async function queueView(view, name, tab) {
  view.append(el("h1", {}, el("a", { href: "#/" }, "Queues"), " / ", name), tabs(name, tab));
  const found = await attempt(() => Sqs.sqs("GetQueueUrl", { QueueName: name }));
  if (!found) return;
  const url = found.QueueUrl;
  if (tab === "messages") return messagesView(view, url, name);
  if (tab === "redrive") return redriveView(view, url, name);
  return detailsView(view, url, name);
}

async function detailsView(view, url, name) {
  const out = await attempt(() => Sqs.sqs("GetQueueAttributes", { QueueUrl: url, AttributeNames: ["All"] }));
  if (!out) return;
  const attrs = out.Attributes || {};
  const inputs = {};
  const rows = Object.keys(attrs).sort().map(k => {
    let value = el("pre", {}, attrs[k]);
    if (EDITABLE.includes(k)) {
      inputs[k] = el(k === "Policy" || k.startsWith("Redrive") ? "textarea" : "input",
        { class: "wide", "data-attribute": k });
      inputs[k].value = attrs[k];
      value = inputs[k];
    }
    return el("tr", {}, el("th", {}, k), el("td", {}, value));
  });
  for (const k of EDITABLE) { // settable but not set yet (RedrivePolicy, Policy, ...)
    if (!(k in attrs) && (name.endsWith(".fifo") || !["ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit"].includes(k))) {
      inputs[k] = el(k === "Policy" || k.startsWith("Redrive") ? "textarea" : "input", { class: "wide", "data-attribute": k, placeholder: "(not set)" });
      rows.push(el("tr", {}, el("th", {}, k), el("td", {}, inputs[k])));
    }
  }
  const saved = el("span", { class: "notice", id: "attributes-saved" });
  view.append(Charts.section(name));
  view.append(el("section", {},
    el("h2", {}, "Attributes"),
    el("p", { class: "muted" }, url),
    el("table", { id: "attribute-table" }, el("tbody", {}, rows)),
    el("div", { class: "row" }, el("button", { id: "save-attributes", class: "primary", onclick: async () => {
      const changed = {};
      for (const [k, input] of Object.entries(inputs)) {
        if (input.value !== (attrs[k] ?? "")) changed[k] = input.value;
      }
      if (Object.keys(changed).length === 0) { saved.textContent = "Nothing changed."; return; }
      if (await attempt(() => Sqs.sqs("SetQueueAttributes", { QueueUrl: url, Attributes: changed })) !== undefined) {
        saved.textContent = "Saved: " + Object.keys(changed).join(", ");
      }
    } }, "Save changes"), saved)));
  await tagsSection(view, url);
  await redriveSummary(view, url, attrs);
}

async function tagsSection(view, url) {
  const out = await attempt(() => Sqs.sqs("ListQueueTags", { QueueUrl: url }));
  if (!out) return;
  const tags = out.Tags || {};
  const key = el("input", { id: "tag-key", placeholder: "key" });
  const value = el("input", { id: "tag-value", placeholder: "value" });
  view.append(el("section", { id: "tags" },
    el("h2", {}, "Tags"),
    el("table", {}, el("tbody", {}, Object.keys(tags).sort().map(k => el("tr", {}, el("th", {}, k), el("td", {}, tags[k]),
      el("td", {}, el("button", { onclick: async () => {
        if (await attempt(() => Sqs.sqs("UntagQueue", { QueueUrl: url, TagKeys: [k] })) !== undefined) route();
      } }, "Remove")))))),
    el("div", { class: "row" }, key, value, el("button", { id: "add-tag", onclick: async () => {
      if (await attempt(() => Sqs.sqs("TagQueue", { QueueUrl: url, Tags: { [key.value]: value.value } })) !== undefined) route();
    } }, "Add tag"))));
}

async function redriveSummary(view, url, attrs) {
  const section = el("section", { id: "redrive-summary" }, el("h2", {}, "Dead-letter queues"));
  if (attrs.RedrivePolicy) {
    const policy = JSON.parse(attrs.RedrivePolicy);
    const dlq = policy.deadLetterTargetArn.split(":").pop();
    section.append(el("p", {}, "Messages received more than ", String(policy.maxReceiveCount),
      " times move to ", el("a", { href: "#/queue/" + encodeURIComponent(dlq) }, dlq), "."));
  } else {
    section.append(el("p", { class: "muted" }, "No redrive policy: messages are never moved to a dead-letter queue."));
  }
  const sources = await attempt(() => Sqs.sqs("ListDeadLetterSourceQueues", { QueueUrl: url, MaxResults: 1000 }));
  if (sources && (sources.queueUrls || []).length > 0) {
    section.append(el("p", {}, "Dead-letter queue of: ",
      sources.queueUrls.map(u => queueName(u)).map((n, i) => [i ? ", " : "", el("a", { href: "#/queue/" + encodeURIComponent(n) }, n)])));
  }
  view.append(section);
}

// ---- messages ----------------------------------------------------------------------------

function messageTable(messages, withDelete) {
  return el("table", { class: "message-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Message ID"), el("th", {}, "Body"), el("th", {}, "Attributes"),
      el("th", { class: "num" }, "Receives"), el("th", {}, "Sent"), withDelete ? el("th", {}, "") : null)),
    el("tbody", {}, messages.map(m => {
      const system = m.Attributes || {};
      const user = Object.entries(m.MessageAttributes || {}).map(([k, v]) =>
        k + " = " + (v.StringValue ?? ("(" + v.DataType + ")"))).join("\n");
      return el("tr", { class: "message" },
        el("td", {}, el("pre", {}, m.MessageId)),
        el("td", {}, el("pre", { class: "body" }, m.Body)),
        el("td", {}, el("pre", {}, user)),
        el("td", { class: "num receive-count" }, system.ApproximateReceiveCount ?? ""),
        el("td", {}, system.SentTimestamp ? new Date(Number(system.SentTimestamp)).toISOString() : ""),
        withDelete ? el("td", {}, withDelete(m)) : null);
    })));
}

async function messagesView(view, url, name) {
  const fifo = name.endsWith(".fifo");
  // send
  const body = el("textarea", { id: "send-body", placeholder: "message body" });
  const delay = el("input", { id: "send-delay", type: "number", min: 0, max: 900, placeholder: "delay (seconds)" });
  const group = el("input", { id: "send-group", placeholder: "message group id" });
  const dedup = el("input", { id: "send-dedup", placeholder: "deduplication id" });
  const attrRows = el("div", {});
  const addAttr = () => attrRows.append(el("div", { class: "row attribute-row" },
    el("input", { class: "attr-name", placeholder: "attribute name" }), el("input", { class: "attr-value", placeholder: "string value" })));
  addAttr();
  const sent = el("span", { class: "notice", id: "send-result" });
  view.append(el("section", {},
    el("h2", {}, "Send a message"), body,
    el("div", { class: "row" }, fifo ? [group, dedup] : delay),
    el("div", { class: "muted" }, "String message attributes:"), attrRows,
    el("div", { class: "row" }, el("button", { onclick: addAttr }, "Add attribute"),
      el("button", { id: "send", class: "primary", onclick: async () => {
        const input = { QueueUrl: url, MessageBody: body.value };
        const attributes = {};
        for (const row of attrRows.querySelectorAll(".attribute-row")) {
          const n = row.querySelector(".attr-name").value.trim();
          if (n) attributes[n] = { DataType: "String", StringValue: row.querySelector(".attr-value").value };
        }
        if (Object.keys(attributes).length) input.MessageAttributes = attributes;
        if (fifo) {
          input.MessageGroupId = group.value;
          if (dedup.value) input.MessageDeduplicationId = dedup.value;
        } else if (delay.value) {
          input.DelaySeconds = Number(delay.value);
        }
        const out = await attempt(() => Sqs.sqs("SendMessage", input));
        if (out) sent.textContent = "Sent " + out.MessageId;
      } }, "Send"), sent)));

  // peek
  const peekArea = el("div", { id: "peek-results" });
  let cursor = null;
  const more = el("button", { id: "peek-more", hidden: true, onclick: () => peek(false) }, "Next page");
  async function peek(fresh) {
    if (fresh) { cursor = null; peekArea.replaceChildren(); }
    const input = { QueueUrl: url, MaxNumberOfMessages: 10 };
    if (cursor) input.Cursor = cursor;
    const out = await attempt(() => Sqs.peek(input));
    if (!out) return;
    const messages = out.Messages || [];
    peekArea.append(messages.length ? messageTable(messages) : el("p", { class: "muted empty" }, "No visible messages" + (fresh ? "." : " on this page.")));
    cursor = out.NextCursor || null;
    more.hidden = !cursor;
  }
  view.append(el("section", {},
    el("h2", {}, "Browse (peek)"),
    el("p", { class: "muted" }, "Peeking shows visible messages from the head of the queue without receiving them: "
      + "their visibility and receive counts do not change. Peeked messages carry no receipt handle, so they cannot be deleted from here; "
      + "use Receive below to take messages off the queue."),
    el("div", { class: "row" }, el("button", { id: "peek", class: "primary", onclick: () => peek(true) }, "Peek messages"), more),
    peekArea));

  // receive + delete
  const received = el("div", { id: "receive-results" });
  view.append(el("section", {},
    el("h2", {}, "Receive and delete"),
    el("p", { class: "muted" }, "Receiving is a real ReceiveMessage: it counts as a receive (and towards the redrive policy) "
      + "and hides the messages for 30 seconds unless you delete them."),
    el("div", { class: "row" }, el("button", { id: "receive", onclick: async () => {
      const out = await attempt(() => Sqs.sqs("ReceiveMessage", { QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 30,
        MessageSystemAttributeNames: ["All"], MessageAttributeNames: ["All"] }));
      if (!out) return;
      const messages = out.Messages || [];
      received.replaceChildren(messages.length ? messageTable(messages, m => el("button", { class: "delete-message", onclick: async e => {
        if (await attempt(() => Sqs.sqs("DeleteMessage", { QueueUrl: url, ReceiptHandle: m.ReceiptHandle })) !== undefined) {
          e.target.closest("tr").remove();
        }
      } }, "Delete")) : el("p", { class: "muted" }, "Nothing received."));
    } }, "Receive up to 10"),
    el("button", { id: "purge", class: "danger", onclick: async () => {
      if (await confirmDialog("Purge " + name + "? Every message in the queue is deleted. This cannot be undone.")) {
        if (await attempt(() => Sqs.sqs("PurgeQueue", { QueueUrl: url })) !== undefined) {
          peekArea.replaceChildren(el("p", { class: "notice", id: "purged" }, "Purge started: the queue is being emptied."));
          received.replaceChildren();
        }
      }
    } }, "Purge queue…")),
    received));
}

// ---- DLQ redrive -------------------------------------------------------------------------

async function redriveView(view, url, name) {
  const attrs = await attempt(() => Sqs.sqs("GetQueueAttributes", { QueueUrl: url, AttributeNames: ["QueueArn", "ApproximateNumberOfMessages"] }));
  if (!attrs) return;
  const arn = attrs.Attributes.QueueArn;
  const destination = el("input", { id: "redrive-destination", class: "wide", placeholder: "destination queue ARN (empty: back to each message's source queue)" });
  const rate = el("input", { id: "redrive-rate", type: "number", min: 1, max: 500, placeholder: "rate (msg/s, optional)" });
  const tasks = el("tbody", { id: "move-tasks" });
  let timer = null;
  async function refresh() {
    const out = await attempt(() => Sqs.sqs("ListMessageMoveTasks", { SourceArn: arn, MaxResults: 10 }));
    if (!out) return;
    tasks.replaceChildren(...(out.Results || []).map(t => el("tr", { class: "move-task", "data-status": t.Status },
      el("td", { class: "status" }, t.Status),
      el("td", { class: "num moved" }, String(t.ApproximateNumberOfMessagesMoved ?? "")),
      el("td", { class: "num" }, String(t.ApproximateNumberOfMessagesToMove ?? "")),
      el("td", {}, t.DestinationArn ? t.DestinationArn.split(":").pop() : "(source queues)"),
      el("td", {}, t.StartedTimestamp ? new Date(Number(t.StartedTimestamp)).toISOString() : ""),
      el("td", {}, t.FailureReason || ""),
      el("td", {}, t.Status === "RUNNING" && t.TaskHandle ? el("button", { class: "cancel-task", onclick: async () => {
        if (await attempt(() => Sqs.sqs("CancelMessageMoveTask", { TaskHandle: t.TaskHandle })) !== undefined) refresh();
      } }, "Cancel") : ""))));
    const running = (out.Results || []).some(t => t.Status === "RUNNING" || t.Status === "CANCELLING");
    clearTimeout(timer);
    if (running && location.hash.endsWith("/redrive")) timer = setTimeout(refresh, 1000);
  }
  view.append(el("section", {},
    el("h2", {}, "Start a redrive"),
    el("p", { class: "muted" }, "Moves the messages of this dead-letter queue (" + attrs.Attributes.ApproximateNumberOfMessages
      + " available now) back to their source queues or to another queue, with StartMessageMoveTask."),
    destination, el("div", { class: "row" }, rate,
      el("button", { id: "start-redrive", class: "primary", onclick: async () => {
        const input = { SourceArn: arn };
        if (destination.value.trim()) input.DestinationArn = destination.value.trim();
        if (rate.value) input.MaxNumberOfMessagesPerSecond = Number(rate.value);
        if (await attempt(() => Sqs.sqs("StartMessageMoveTask", input))) refresh();
      } }, "Start redrive"))),
    el("section", {},
      el("div", { class: "row" }, el("h2", {}, "Move tasks"), el("button", { id: "refresh-tasks", onclick: refresh }, "Refresh")),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Status"), el("th", { class: "num" }, "Moved"),
        el("th", { class: "num" }, "To move"), el("th", {}, "Destination"), el("th", {}, "Started"), el("th", {}, "Failure"), el("th", {}, ""))),
      tasks)));
  await refresh();
}

// ---- routing -----------------------------------------------------------------------------

async function route() {
  const view = $("view");
  view.replaceChildren();
  view.removeAttribute("data-ready");
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "queue" && parts[1]) {
    await queueView(view, parts[1], parts[2] || "details");
  } else {
    await queuesView(view);
  }
  view.setAttribute("data-ready", "true"); // tests wait for this
}

document.addEventListener("DOMContentLoaded", () => {
  setUpSignIn();
  renderWho();
  window.addEventListener("hashchange", route);
  route();
});
