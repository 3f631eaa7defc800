import { rowsOf, type BenchResult, type Row } from "./report";

/** The bench's chart: throughput.svg, beside the Markdown report. */

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Two panels side by side: requests per second on a log scale (each row with a mark at its
 * baseline), and CPU time per request split between the Node process and PostgreSQL.
 */
export function renderSvg(result: BenchResult): string {
  const rows = rowsOf(result);
  const rowHeight = 30;
  const top = 84;
  const labelWidth = 340;
  const panelA = { x: labelWidth, width: 420 };
  const panelB = { x: labelWidth + panelA.width + 170, width: 260 };
  const width = panelB.x + panelB.width + 130;
  const height = top + rows.length * rowHeight + 56;
  const maxRps = Math.max(...rows.map((row) => row.result.requestsPerSecond), 10);
  const decades = { low: 1, high: Math.ceil(Math.log10(maxRps)) };
  const xOf = (rps: number) =>
    panelA.x + (Math.max(0, Math.log10(Math.max(rps, 10)) - decades.low) / (decades.high - decades.low)) * panelA.width;
  const maxCpu = Math.max(
    ...rows.map((row) => row.result.cpuMsPerRequest.server + (row.result.cpuMsPerRequest.database ?? 0)),
    0.01,
  );
  const colour = (row: Row) =>
    row.id.startsWith("baseline")
      ? "#9aa0a6"
      : row.id === "checkout"
        ? "#d97706"
        : row.id.startsWith("api")
          ? "#1f9d55"
          : "#2f6fdf";

  const parts: string[] = [];
  const bottom = top + rows.length * rowHeight;
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">Waqt bench ${escape(result.date.slice(0, 10))}: ${result.seed.products.toLocaleString("en")} products; ${result.machine.cpus} × ${escape(result.machine.cpu)}, Node ${escape(result.machine.node)}</text>`,
    `<text x="${panelA.x}" y="${top - 30}" font-weight="600">Requests per second (log scale; | = its baseline, measured around it)</text>`,
    `<text x="${panelB.x}" y="${top - 30}" font-weight="600">CPU ms per request</text>`,
    `<rect x="${panelB.x}" y="${top - 22}" width="10" height="10" fill="#2f6fdf"/><text x="${panelB.x + 14}" y="${top - 13}">Node (store process)</text>`,
    `<rect x="${panelB.x + 150}" y="${top - 22}" width="10" height="10" fill="#f59e0b"/><text x="${panelB.x + 164}" y="${top - 13}">PostgreSQL</text>`,
  );
  for (let decade = decades.low; decade <= decades.high; decade++) {
    const x = xOf(10 ** decade);
    parts.push(
      `<line x1="${x.toFixed(1)}" y1="${top}" x2="${x.toFixed(1)}" y2="${bottom}" stroke="#e3e3e3"/>`,
      `<text x="${x.toFixed(1)}" y="${bottom + 14}" text-anchor="middle" fill="#777">${(10 ** decade).toLocaleString("en")}</text>`,
    );
  }
  rows.forEach((row, index) => {
    const y = top + index * rowHeight;
    const entry = row.result;
    const end = xOf(entry.requestsPerSecond);
    const label = `${entry.requestsPerSecond.toFixed(0)}${entry.ratio !== undefined ? ` · ${entry.ratio.toFixed(2)}×` : ""} · p99 ${entry.latencyMs.p99} ms`;
    const node = (entry.cpuMsPerRequest.server / maxCpu) * panelB.width;
    const database = ((entry.cpuMsPerRequest.database ?? 0) / maxCpu) * panelB.width;
    const cpuLabel = `${entry.cpuMsPerRequest.server.toFixed(2)} + ${entry.cpuMsPerRequest.database === null ? "?" : entry.cpuMsPerRequest.database.toFixed(2)}`;
    parts.push(
      `<text x="${labelWidth - 10}" y="${y + 19}" text-anchor="end">${escape(row.title)}</text>`,
      `<rect x="${panelA.x}" y="${y + 6}" width="${Math.max(1, end - panelA.x).toFixed(1)}" height="${rowHeight - 12}" fill="${colour(row)}"/>`,
    );
    const baselineRps = entry.ratio ? entry.requestsPerSecond / entry.ratio : null;
    if (baselineRps) {
      const mark = xOf(baselineRps);
      parts.push(
        `<line x1="${mark.toFixed(1)}" y1="${y + 3}" x2="${mark.toFixed(1)}" y2="${y + rowHeight - 3}" stroke="#333" stroke-width="2"/>`,
      );
    }
    parts.push(
      `<text x="${(Math.max(end, baselineRps ? xOf(baselineRps) : 0) + 6).toFixed(1)}" y="${y + 19}" fill="#333">${escape(label)}</text>`,
      `<rect x="${panelB.x}" y="${y + 6}" width="${node.toFixed(1)}" height="${rowHeight - 12}" fill="#2f6fdf"/>`,
      `<rect x="${(panelB.x + node).toFixed(1)}" y="${y + 6}" width="${database.toFixed(1)}" height="${rowHeight - 12}" fill="#f59e0b"/>`,
      `<text x="${(panelB.x + node + database + 6).toFixed(1)}" y="${y + 19}" fill="#333">${escape(cpuLabel)}</text>`,
    );
  });
  parts.push(
    `<text x="12" y="${height - 14}" fill="#555">Grey: baselines (bare Express JSON; bare React Router page). Blue: pages. Green: API. Orange: checkout (orders placed). Label: req/s · × baseline · p99.</text>`,
    "</svg>",
  );
  return parts.join("\n") + "\n";
}
