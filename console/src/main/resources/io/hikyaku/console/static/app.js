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

// Queue URLs typed by the user, per name, for this tab: a principal that may not call ListQueues or
// GetQueueUrl still reaches its queue (sessionStorage, so a reload of the queue page keeps it).
const KNOWN_URLS = "hikyaku.console.queueUrls";

function knownUrl(name) {
  return JSON.parse(sessionStorage.getItem(KNOWN_URLS) || "{}")[name];
}

function rememberUrl(name, url) {
  const all = JSON.parse(sessionStorage.getItem(KNOWN_URLS) || "{}");
  all[name] = url;
  sessionStorage.setItem(KNOWN_URLS, JSON.stringify(all));
}

/** A queue URL (http(s)://host/<account>/<name>) or a bare name; opens its page without ListQueues. */
function openQueue(text) {
  const value = text.trim();
  if (!value) return;
  if (/^https?:\/\//i.test(value)) {
    const name = queueName(value.replace(/\/+$/, ""));
    rememberUrl(name, value.replace(/\/+$/, ""));
    location.hash = "#/queue/" + encodeURIComponent(name);
  } else {
    location.hash = "#/queue/" + encodeURIComponent(value);
  }
}

function openQueueSection() {
  const input = el("input", { id: "open-queue-input", placeholder: "queue URL or name" });
  input.addEventListener("keydown", e => { if (e.key === "Enter") openQueue(input.value); });
  return el("section", { class: "open-queue" },
    el("h2", {}, "Open a queue"),
    el("div", { class: "row" }, input, el("button", { id: "open-queue", onclick: () => openQueue(input.value) }, "Open")),
    el("p", { class: "hint" }, "Goes straight to the queue's page, without listing the account's queues: "
      + "for a principal allowed to use a queue but not to call ListQueues."));
}

async function queuesView(view) {
  const body = el("tbody");
  const nameInput = el("input", { id: "new-queue-name", placeholder: "queue name", required: true });
  const fifoBox = el("input", { id: "new-queue-fifo", type: "checkbox" });
  view.append(
    el("h1", {}, "Queues"),
    openQueueSection(),
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

function isAccessDenied(e) {
  return e && (e.status === 403 || /AccessDenied/.test(e.type || "")) && !e.needsSignIn;
}

/**
 * The queue's URL: one the user typed, else GetQueueUrl; when GetQueueUrl is denied, the URL of
 * that name in the caller's own account (STS GetCallerIdentity needs no permission), so a principal
 * allowed only to send still gets its queue page. Any other error is the server's own.
 */
async function resolveQueueUrl(name) {
  const known = knownUrl(name);
  if (known) return known;
  try {
    return (await Sqs.sqs("GetQueueUrl", { QueueName: name })).QueueUrl;
  } catch (e) {
    if (!isAccessDenied(e)) throw e;
    const account = await Sqs.callerAccount().catch(() => null);
    if (!account) throw e;
    return location.origin + "/" + account + "/" + encodeURIComponent(name);
  }
}

async function queueView(view, name, tab) {
  view.append(el("h1", {}, el("a", { href: "#/" }, "Queues"), " / ", name), tabs(name, tab));
  const url = await attempt(() => resolveQueueUrl(name));
  if (!url) return;
  if (tab === "messages") return messagesView(view, url, name);
  if (tab === "redrive") return redriveView(view, url, name);
  return detailsView(view, url, name);
}

/** What a principal that may not read the queue's attributes can still do here. */
function deniedNotice(url, name, e) {
  return el("section", { id: "attributes-denied" },
    el("h2", {}, "Attributes"),
    el("p", { class: "muted" }, url),
    el("p", {}, "You may not read this queue's attributes (" + (e.type || "AccessDenied") + ": " + e.message + "). "
      + "Actions your policy allows still work: ", el("a", { id: "go-send", href: "#/queue/" + encodeURIComponent(name) + "/messages" },
        "send a message"), "."));
}

async function detailsView(view, url, name) {
  let out;
  try {
    out = await Sqs.sqs("GetQueueAttributes", { QueueUrl: url, AttributeNames: ["All"] });
    showError(null);
  } catch (e) {
    if (!isAccessDenied(e)) { showError(e); return; }
    view.append(deniedNotice(url, name, e));
    return;
  }
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
  view.append(Alarms.section(name));
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
  const group = el("input", { id: "send-group", placeholder: "message group id (required)", required: true });
  const dedup = el("input", { id: "send-dedup", placeholder: "deduplication id" });
  // Content-based deduplication decides whether a FIFO send needs a deduplication id; unknown (the
  // attribute may not be readable) leaves the check to SQS.
  let contentDedup = null;
  const dedupHint = el("span", { class: "hint", id: "send-dedup-hint" });
  if (fifo) {
    Sqs.sqs("GetQueueAttributes", { QueueUrl: url, AttributeNames: ["ContentBasedDeduplication"] }).then(out => {
      contentDedup = (out.Attributes || {}).ContentBasedDeduplication === "true";
      dedup.placeholder = contentDedup ? "deduplication id (optional: content-based)" : "deduplication id (required)";
      dedup.required = !contentDedup;
      dedupHint.textContent = contentDedup ? "Content-based deduplication is on: without an id, the body's SHA-256 is used."
        : "Content-based deduplication is off: each message needs a deduplication id.";
    }, () => { dedupHint.textContent = "Deduplication id: needed unless the queue has content-based deduplication."; });
  }
  const attrRows = el("div", {});
  const addAttr = () => attrRows.append(el("div", { class: "row attribute-row" },
    el("input", { class: "attr-name", placeholder: "attribute name" }), el("input", { class: "attr-value", placeholder: "string value" })));
  addAttr();
  const sent = el("span", { class: "notice", id: "send-result" });
  view.append(el("section", {},
    el("h2", {}, "Send a message"), body,
    el("div", { class: "row" }, fifo ? [group, dedup, dedupHint] : delay),
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
          // Checked here so the user sees what is missing, never an empty parameter sent to SQS.
          if (!group.value.trim()) { sent.textContent = ""; showError({ message: "A FIFO queue needs a message group id." }); group.focus(); return; }
          if (contentDedup === false && !dedup.value.trim()) {
            sent.textContent = "";
            showError({ message: "This queue has content-based deduplication off: give a deduplication id." });
            dedup.focus();
            return;
          }
          input.MessageGroupId = group.value.trim();
          if (dedup.value.trim()) input.MessageDeduplicationId = dedup.value.trim();
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
  const available = el("span", { id: "redrive-available" }, attrs.Attributes.ApproximateNumberOfMessages);
  let timer = null;
  /** The queue's count now (it falls while a task moves messages out). */
  async function refreshCount() {
    const now = await Sqs.sqs("GetQueueAttributes", { QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] }).catch(() => null);
    if (now) available.textContent = now.Attributes.ApproximateNumberOfMessages;
  }
  async function refresh() {
    const out = await attempt(() => Sqs.sqs("ListMessageMoveTasks", { SourceArn: arn, MaxResults: 10 }));
    if (!out) return;
    await refreshCount(); // read after the task list, so a task seen finished shows its final count
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
    el("p", { class: "muted" }, "Moves the messages of this dead-letter queue (", available,
      " available now) back to their source queues or to another queue, with StartMessageMoveTask."),
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
  } else if (parts[0] === "schedules") {
    await Schedules.view(view);
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
