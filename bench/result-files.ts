import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./processes";
import { renderSvg } from "./chart";
import { renderMarkdown, type BenchResult } from "./report";

/**
 * Where a run's results go: the commit and machine they were measured on, and the files written
 * (bench.json, bench.md and throughput.svg, or their -<products> names) with the Markdown printed.
 */

export function writeResults(
  result: BenchResult,
  options: { outDir: string; stem: string; products: number; only: Set<string> | null },
): void {
  const { outDir, stem, products, only } = options;
  fs.mkdirSync(outDir, { recursive: true });
  const lighthousePath = path.join(ROOT, "bench/results/lighthouse.json");
  const lighthouse = fs.existsSync(lighthousePath) ? JSON.parse(fs.readFileSync(lighthousePath, "utf8")) : null;
  const imagesPath = path.join(only ? outDir : path.join(ROOT, "bench/results"), "images.json");
  const images = fs.existsSync(imagesPath) ? JSON.parse(fs.readFileSync(imagesPath, "utf8")) : null;
  const markdown = renderMarkdown(result, {
    lighthouse,
    images,
    svgName: `${stem === "bench" ? "throughput" : `throughput-${products}`}.svg`,
  });
  fs.writeFileSync(path.join(outDir, `${stem}.json`), JSON.stringify(result, null, 2) + "\n");
  fs.writeFileSync(path.join(outDir, `${stem}.md`), markdown);
  fs.writeFileSync(
    path.join(outDir, stem === "bench" ? "throughput.svg" : `throughput-${products}.svg`),
    renderSvg(result),
  );
  console.log("\n" + markdown);
  console.log(`Written to ${path.relative(ROOT, outDir)}/ in ${result.seconds.toFixed(0)} s.`);
}

export function gitCommit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

export function machine(loadAverage: number[]) {
  let cpu = os.cpus()[0]?.model ?? "unknown";
  try {
    cpu = /model name\s*:\s*(.*)/.exec(fs.readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpu;
  } catch {
    // not Linux
  }
  return {
    cpus: os.availableParallelism(),
    cpu,
    ramGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadAverageAtStart: loadAverage.map((value) => Number(value.toFixed(2))),
  };
}
