// The page of examples/sqlite_explorer.py. It speaks the app side of MCP Apps itself, as
// JSON-RPC over postMessage with the host (no SDK, no CDN, no build step):
//   1. ui/initialize, then ui/notifications/initialized;
//   2. the host pushes ui/notifications/tool-input (the query's arguments) and
//      ui/notifications/tool-result (its rows, in structuredContent);
//   3. the page calls the server's tools through the host with tools/call:
//      list_tables (visible to the app only) and query.
"use strict";

const host = window.parent;
const pending = new Map();          // our request id -> {resolve, reject}
let nextId = 1;
let shown = { columns: [], rows: [] };
let sortBy = { column: -1, descending: false };

function send(message) {
  host.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*");
}

function request(method, params) {
  const id = nextId++;
  send({ id: id, method: method, params: params });
  return new Promise(function (resolve, reject) { pending.set(id, { resolve: resolve, reject: reject }); });
}

function notify(method, params) {
  send({ method: method, params: params || {} });
}

function status(text, isError) {
  const line = document.getElementById("status");
  line.textContent = text;
  line.className = isError ? "error" : "";
}

// What the host asks of us, and what it tells us.
const requests = {
  "ping": function () { return {}; },
  "ui/resource-teardown": function () { return {}; },
};
const notifications = {
  "ui/notifications/tool-input": function (params) {
    const args = params.arguments || {};
    if (typeof args.sql === "string") {
      document.getElementById("sql").value = args.sql;
    }
    status("running the query…");
  },
  "ui/notifications/tool-result": showResult,
  "ui/notifications/tool-cancelled": function (params) {
    status("the query was cancelled" + (params.reason ? ": " + params.reason : ""), true);
  },
  "ui/notifications/host-context-changed": applyHostContext,
};

window.addEventListener("message", function (event) {
  const message = event.data;
  if (event.source !== host || !message || message.jsonrpc !== "2.0") {
    return;                          // only the host speaks to the page
  }
  if (message.method === undefined) {                      // an answer to one of our requests
    const waiter = pending.get(message.id);
    if (waiter) {
      pending.delete(message.id);
      if (message.error) {
        waiter.reject(new Error(message.error.message || "error " + message.error.code));
      } else {
        waiter.resolve(message.result);
      }
    }
  } else if (message.id !== undefined) {                   // a request from the host
    const handler = requests[message.method];
    send(handler ? { id: message.id, result: handler(message.params || {}) }
                 : { id: message.id, error: { code: -32601, message: "Method not found: " + message.method } });
  } else if (notifications[message.method]) {
    notifications[message.method](message.params || {});
  }
});

function applyHostContext(context) {
  if (context.theme) {
    document.documentElement.style.colorScheme = context.theme;
  }
  const variables = (context.styles && context.styles.variables) || {};
  Object.keys(variables).forEach(function (name) {
    if (variables[name]) {
      document.documentElement.style.setProperty(name, variables[name]);
    }
  });
}

// -- results ------------------------------------------------------------------------
function showResult(result) {
  if (result.isError) {
    const text = (result.content || []).map(function (block) { return block.text || ""; }).join(" ");
    status(text || "the query failed", true);
    return;
  }
  const data = result.structuredContent;
  if (!data || !Array.isArray(data.columns)) {
    status("the result has no rows to show", true);
    return;
  }
  shown = { columns: data.columns, rows: data.rows.slice() };
  sortBy = { column: -1, descending: false };
  document.getElementById("summary").textContent =
    data.rows.length + (data.rows.length === 1 ? " row" : " rows") + (data.truncated ? " (truncated)" : "");
  status("ready");
  render();
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

function render() {
  const head = document.querySelector("#rows thead");
  const body = document.querySelector("#rows tbody");
  head.textContent = "";
  body.textContent = "";
  const header = head.insertRow();
  shown.columns.forEach(function (name, index) {
    const cell = document.createElement("th");
    cell.textContent = name;
    if (index === sortBy.column) {
      cell.setAttribute("aria-sort", sortBy.descending ? "descending" : "ascending");
    }
    cell.addEventListener("click", function () {
      sortBy = { column: index, descending: sortBy.column === index && !sortBy.descending };
      shown.rows.sort(function (a, b) {
        return (sortBy.descending ? -1 : 1) * compare(a[index], b[index]);
      });
      render();
    });
    header.appendChild(cell);
  });
  shown.rows.forEach(function (row) {
    const line = body.insertRow();
    row.forEach(function (value) {
      const cell = line.insertCell();
      cell.textContent = value === null ? "NULL" : String(value);
      if (typeof value === "number") cell.className = "number";
    });
  });
  drawChart();
}

// A bar chart of the last numeric column, labelled by the first text column.
function drawChart() {
  const svg = document.getElementById("chart");
  svg.textContent = "";
  const rows = shown.rows.slice(0, 30);
  let value = -1;
  let label = -1;
  shown.columns.forEach(function (_, index) {
    const values = rows.map(function (row) { return row[index]; }).filter(function (v) { return v !== null; });
    if (values.length && values.every(function (v) { return typeof v === "number"; })) value = index;
    else if (label < 0 && values.length) label = index;
  });
  svg.style.display = value < 0 || !rows.length ? "none" : "";
  if (value < 0 || !rows.length) return;
  const width = svg.clientWidth || 320;
  const height = svg.clientHeight || 220;
  const top = Math.max.apply(null, rows.map(function (row) { return row[value] || 0; }).concat([1]));
  const step = width / rows.length;
  const ns = "http://www.w3.org/2000/svg";
  rows.forEach(function (row, index) {
    const barHeight = Math.max(1, (height - 36) * (row[value] || 0) / top);
    const bar = document.createElementNS(ns, "rect");
    bar.setAttribute("class", "bar");
    bar.setAttribute("x", String(index * step + step * 0.15));
    bar.setAttribute("y", String(height - 18 - barHeight));
    bar.setAttribute("width", String(step * 0.7));
    bar.setAttribute("height", String(barHeight));
    svg.appendChild(bar);
    const caption = document.createElementNS(ns, "text");
    caption.setAttribute("x", String(index * step + step / 2));
    caption.setAttribute("y", String(height - 4));
    caption.setAttribute("text-anchor", "middle");
    caption.textContent = label < 0 ? String(index + 1) : String(row[label]);
    svg.appendChild(caption);
    const amount = document.createElementNS(ns, "text");
    amount.setAttribute("x", String(index * step + step / 2));
    amount.setAttribute("y", String(height - 22 - barHeight));
    amount.setAttribute("text-anchor", "middle");
    amount.textContent = String(row[value]);
    svg.appendChild(amount);
  });
}

// -- calling the server's tools through the host -------------------------------------
function callTool(name, args) {
  return request("tools/call", { name: name, arguments: args });
}

function runQuery(sql) {
  status("running the query…");
  return callTool("query", { sql: sql, max_rows: 200 }).then(showResult, function (error) {
    status(error.message, true);
  });
}

// A button, not a form: hosts sandbox the page without allow-forms, where a submit never fires.
document.getElementById("run").addEventListener("click", function () {
  runQuery(document.getElementById("sql").value);
});
document.getElementById("sql").addEventListener("keydown", function (event) {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    runQuery(document.getElementById("sql").value);
  }
});

document.getElementById("tables").addEventListener("change", function (event) {
  if (event.target.value) {
    const sql = 'SELECT * FROM "' + event.target.value.replace(/"/g, '""') + '" LIMIT 200';
    document.getElementById("sql").value = sql;
    runQuery(sql);
  }
});

function loadTables() {
  return callTool("list_tables", {}).then(function (result) {
    const picker = document.getElementById("tables");
    ((result.structuredContent || {}).result || []).forEach(function (name) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      picker.appendChild(option);
    });
  }, function (error) {
    status("cannot list the tables: " + error.message, true);
  });
}

// -- start ---------------------------------------------------------------------------
request("ui/initialize", {
  appInfo: { name: "sqlite-explorer-page", version: "1.0.0" },
  appCapabilities: { availableDisplayModes: ["inline"] },
  protocolVersion: "2026-01-26",
}).then(function (result) {
  applyHostContext(result.hostContext || {});
  notify("ui/notifications/initialized");
  status("waiting for the query's result…");
  // The host sizes the frame to the content (the body: the document is at least the frame's height).
  new ResizeObserver(function () {
    const box = document.body.getBoundingClientRect();
    notify("ui/notifications/size-changed", { width: Math.ceil(box.width), height: Math.ceil(box.height) });
  }).observe(document.body);
  return loadTables();
}, function (error) {
  status("the host refused ui/initialize: " + error.message, true);
});
