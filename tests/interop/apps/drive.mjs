// Drives Debian's Chromium (playwright-core, executablePath) through the MCP Apps browser stage:
// the host page (host.html + host.bundle.js, served by a route on the page's own origin, so no
// server is needed for it) connects to minimcp over HTTP from another origin (CORS), shows
// examples/sqlite_explorer.py's page, pushes a tool result, and the page calls tools back.
//
// Usage: node drive.mjs --chromium BIN --host-dir DIR --server URL --origin ORIGIN --out DIR --profile DIR
// Prints one "PASS name" / "FAIL name: why" line per check and "N passed, M failed"; exits 1 on any failure.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const options = {};
for (let i = 2; i < process.argv.length; i += 2) options[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const name of ["chromium", "host-dir", "server", "origin", "out", "profile"]) {
  if (!options[name]) { console.error("drive.mjs: --" + name + " is required"); process.exit(2); }
}

const SQL = "SELECT name AS city, country, population FROM city ORDER BY population DESC";
const ROUND_TRIP_SQL = "SELECT c.name AS city, COUNT(*) AS visits FROM visit v JOIN city c ON c.id = v.city_id " +
                       "GROUP BY c.name ORDER BY visits DESC, city";
let passed = 0, failed = 0;
function check(name, ok, why) {
  if (ok) { passed++; console.log("PASS apps-browser." + name); }
  else { failed++; console.log("FAIL apps-browser." + name + ": " + why); }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The flags that work on this machine (no GPU, no sandbox inside the container, no network).
const context = await chromium.launchPersistentContext(options.profile, {
  executablePath: options.chromium, headless: true, chromiumSandbox: false,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 800, height: 1000 },
  // A page that reaches a loopback server needs the user's Local Network Access permission
  // in Chromium; a user of a web host grants it the same way.
  permissions: ["local-network-access"],
});
try {
  const files = { "/host.html": "text/html", "/host.bundle.js": "text/javascript" };
  await context.route(options.origin + "/**", (route) => {
    const path = new URL(route.request().url()).pathname;
    if (!files[path]) return route.fulfill({ status: 404, body: "not here" });
    return route.fulfill({ status: 200, contentType: files[path], body: readFileSync(join(options["host-dir"], path)) });
  });
  const page = await context.newPage();
  const console_ = [];
  page.on("console", (message) => console_.push(message.type() + ": " + message.text()));
  page.on("pageerror", (error) => console_.push("pageerror: " + error.message));
  await page.goto(options.origin + "/host.html?server=" + encodeURIComponent(options.server) +
                  "&sql=" + encodeURIComponent(SQL));
  await page.waitForFunction(() => window.hostReport && (window.hostReport.ready || window.hostReport.error),
                             null, { timeout: 60000 });
  const report = await page.evaluate(() => window.hostReport);
  check("host-connected", !report.error, report.error + "\n" + console_.join("\n"));
  if (report.error) throw new Error("the host failed");

  // What the host saw on the wire, through the official SDK client.
  check("negotiation.without-apps", same(report.toolsWithoutApps, ["query"]), JSON.stringify(report.toolsWithoutApps));
  check("negotiation.with-apps", same(report.toolsWithApps, ["list_tables", "query"]), JSON.stringify(report.toolsWithApps));
  check("tool-meta.flat-uri", report.flatUri === report.page.uri, JSON.stringify(report));
  check("page.one-document", report.page.count === 1 && report.page.mimeType === "text/html;profile=mcp-app",
        JSON.stringify(report.page));
  check("result.text-for-the-model", /Quito/.test(report.resultText || ""), report.resultText);

  // The page rendered the pushed result.
  const view = page.frameLocator("iframe");
  const rows = view.locator("#rows tbody tr");
  await view.locator("#summary").filter({ hasText: "3 rows" }).waitFor({ timeout: 20000 });
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells, (td) => td.textContent)));
  check("render.rows", same(cells, [["Quito", "EC", "2800000"], ["Oslo", "NO", "709000"], ["Lisbon", "PT", "545000"]]),
        JSON.stringify(cells));
  check("render.headers", same(await view.locator("#rows thead th").allTextContents(), ["city", "country", "population"]),
        await view.locator("#rows thead").textContent());
  check("render.chart", (await view.locator("#chart rect.bar").count()) === 3, "bars: " +
        (await view.locator("#chart rect.bar").count()));
  check("render.input", (await view.locator("#sql").inputValue()) === SQL, await view.locator("#sql").inputValue());

  // The page's own call (list_tables, visible to the app only) came back through the bridge.
  await view.locator("#tables option[value=visit]").waitFor({ state: "attached", timeout: 20000 });
  check("round-trip.app-only-tool", report.calls.includes("list_tables") || (await page.evaluate(
    () => window.hostReport.calls)).includes("list_tables"), JSON.stringify(report.calls));

  // Sorting happens in the page: by city, ascending.
  await view.locator("#rows thead th", { hasText: "city" }).click();
  check("sort.by-city", same(await view.locator("#rows tbody tr td:first-child").allTextContents(),
                             ["Lisbon", "Oslo", "Quito"]), await view.locator("#rows tbody").textContent());

  await page.locator("iframe").screenshot({ path: join(options.out, "sqlite_explorer.png") });
  check("screenshot", true, "");

  // The page calls query through the host: the round trip ends in new rows.
  await view.locator("#sql").fill(ROUND_TRIP_SQL);
  await view.locator("#run").click();
  await view.locator("#rows thead th", { hasText: "visits" }).waitFor({ timeout: 20000 });
  const after = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells, (td) => td.textContent)));
  const calls = await page.evaluate(() => window.hostReport.calls);
  check("round-trip.query", same(after, [["Lisbon", "1667"], ["Oslo", "1667"], ["Quito", "1666"]]) &&
        calls.filter((c) => c === "query").length === 1,
        JSON.stringify({ after, calls }));
  const errors = console_.filter((line) => /^(error|pageerror)/.test(line));
  check("no-page-errors", errors.length === 0, errors.join("\n"));
} catch (error) {
  const pages = context.pages();
  const status = pages.length ? await pages[0].frameLocator("iframe").locator("#status").textContent({ timeout: 2000 })
    .catch(() => "(no page status)") : "(no page)";
  check("run", false, ((error && error.stack) || error) + "\nthe page says: " + status);
} finally {
  await context.close();
}
console.log(passed + " passed, " + failed + " failed");
process.exit(failed ? 1 : 0);
