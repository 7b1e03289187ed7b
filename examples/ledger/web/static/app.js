// The ledger chat page: no framework, no build step. Everything shown is set with textContent
// (no HTML parsing anywhere), so text from the model, the tools or the database cannot become markup.

const session = crypto.randomUUID();
const log = document.getElementById("log");
const form = document.getElementById("composer");
const input = document.getElementById("input");
const sendButton = document.getElementById("send");
const balanceRows = document.getElementById("balances");
const balanceStatus = document.getElementById("balances-status");

/** Creates an element with a class and text content. */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function json(value) {
  return JSON.stringify(value, null, 2);
}

function append(item) {
  log.append(item);
  item.scrollIntoView({ block: "end" });
  return item;
}

// --- balances -------------------------------------------------------------------------------

let shownBalances = new Map();

function renderBalances(accounts) {
  const next = new Map(accounts.map((a) => [a.address, a.balance]));
  balanceRows.replaceChildren(
    ...accounts.map((account) => {
      const row = el("tr");
      row.dataset.address = account.address;
      const before = shownBalances.get(account.address);
      if (shownBalances.size > 0 && before !== account.balance) row.className = "changed";
      row.append(el("td", "", account.address), el("td", "", account.balance));
      return row;
    }),
  );
  shownBalances = next;
  balanceStatus.textContent = `updated ${new Date().toLocaleTimeString()}`;
}

async function refreshBalances() {
  try {
    const response = await fetch("/api/balances");
    const body = await response.json();
    if (!response.ok) throw new Error(body.error);
    renderBalances(body.accounts);
  } catch (error) {
    balanceStatus.textContent = `balances unavailable: ${error.message}`;
  }
}

// --- one message ----------------------------------------------------------------------------

/** What one message's run has put on the page: assistant bubbles by step, tool cards by call id. */
function createRun() {
  const bubbles = new Map();
  const cards = new Map();

  const bubble = (step) => {
    let node = bubbles.get(step);
    if (!node) {
      node = append(el("li", "assistant", ""));
      node.dataset.step = String(step);
      bubbles.set(step, node);
    }
    return node;
  };

  const card = (id, name) => {
    let entry = cards.get(id);
    if (!entry) {
      const node = append(el("li", "tool"));
      node.dataset.tool = name;
      node.dataset.call = id;
      const status = el("span", "status", "running");
      const title = el("h3");
      title.append(el("span", "", `🔧 ${name} · `), status);
      const args = el("pre", "args");
      node.append(title, el("div", "muted", "arguments"), args);
      entry = { node, status, args };
      cards.set(id, entry);
    }
    return entry;
  };

  const setStatus = (entry, status, text) => {
    entry.node.dataset.status = status;
    entry.status.textContent = text ?? status;
  };

  const askPermission = (entry, event) => {
    setStatus(entry, "waiting", "waiting for your approval");
    const box = el("div", "permission");
    const allow = el("button", "approve", "Approve");
    const deny = el("button", "deny", "Deny");
    allow.type = deny.type = "button";
    const answer = async (decision) => {
      allow.disabled = deny.disabled = true;
      const response = await fetch("/api/permission", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ session, id: event.id, allow: decision }),
      });
      if (!response.ok) box.append(el("span", "error", (await response.json()).error));
    };
    allow.addEventListener("click", () => answer(true));
    deny.addEventListener("click", () => answer(false));
    box.append(el("span", "", `Allow ${event.name}? It moves money.`), allow, deny);
    entry.node.append(box);
    entry.permission = box;
  };

  return function handle(event) {
    switch (event.type) {
      case "text":
        bubble(event.step).textContent += event.text;
        break;
      case "assistant":
        if (event.text || bubbles.has(event.step)) bubble(event.step).textContent = event.text;
        break;
      case "tool-call":
        card(event.id, event.name).args.textContent = json(event.args);
        break;
      case "permission-request":
        askPermission(card(event.id, event.name), event);
        break;
      case "permission-decision": {
        const entry = card(event.id, "");
        entry.permission?.remove();
        if (event.decision === "deny") setStatus(entry, "denied", `denied (${event.reason ?? "no reason"})`);
        else setStatus(entry, "running", "approved, running");
        break;
      }
      case "validation-error": {
        const entry = card(event.id, event.name);
        setStatus(entry, "invalid", "invalid arguments");
        entry.node.append(el("pre", "result", event.message));
        break;
      }
      case "tool-result": {
        const entry = card(event.id, event.name);
        if (entry.node.dataset.status !== "denied") setStatus(entry, event.outcome);
        entry.node.append(el("div", "muted", "result"));
        entry.node.append(el("pre", "result", event.structured ? json(event.structured) : event.content));
        break;
      }
      case "balances":
        renderBalances(event.accounts);
        break;
      case "final":
        if (event.stopReason !== "end_turn") append(el("li", "error", `stopped: ${event.stopReason}`));
        break;
      case "error":
        append(el("li", "error", event.message));
        break;
    }
  };
}

async function send(message) {
  append(el("li", "user", message));
  const handle = createRun();
  const response = await fetch("/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session, message }),
  });
  if (!response.ok) {
    handle({ type: "error", message: (await response.json()).error });
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines) if (line) handle(JSON.parse(line));
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message) return;
  input.value = "";
  input.disabled = sendButton.disabled = true;
  log.dataset.busy = "true";
  try {
    await send(message);
  } catch (error) {
    append(el("li", "error", `the chat failed: ${error.message}`));
  } finally {
    input.disabled = sendButton.disabled = false;
    delete log.dataset.busy;
    input.focus();
  }
});

input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

refreshBalances();
// Other clients of the same database (another `mcp-gen serve ledger`) move money too.
setInterval(refreshBalances, 5000);
