import fs from "node:fs";
import path from "node:path";

/**
 * Where the store's CPU time went (`npm run bench -- --cpu-prof`): the V8 profile that
 * `node --cpu-prof` wrote at exit, self time grouped by package (or part of the build).
 */

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export type ProfileSummary = {
  file: string;
  busyMs: number;
  /** Self time by package, native and Node-internal work charged to the package that called it. */
  byPart: { part: string; ms: number; share: number }[];
  topFunctions: { fn: string; part: string; ms: number; share: number }[];
};

export function summariseProfiles(dir: string): ProfileSummary | null {
  if (!fs.existsSync(dir)) return null;
  const file = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  return file ? summariseProfile(file) : null;
}

export function summariseProfile(file: string): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // Native and Node-internal work (a socket write, zlib, a stat) is charged to the package whose
  // JavaScript asked for it, the nearest one up the stack.
  const ownerOf = (id: number): string => {
    const { functionName, url } = nodes.get(id)!.callFrame;
    const own = partOf(functionName, url);
    if (functionName.startsWith("(") && !url) return own;
    for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
      const frame = nodes.get(current)!.callFrame;
      const part = partOf(frame.functionName, frame.url);
      if (!part.startsWith("node:") && !part.startsWith("(")) return part;
    }
    return own;
  };
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
  });

  const parts = new Map<string, number>();
  const functions = new Map<string, { part: string; ms: number }>();
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === "(idle)") continue;
    busyMs += ms;
    const part = partOf(functionName, url);
    const owner = ownerOf(id);
    parts.set(owner, (parts.get(owner) ?? 0) + ms);
    const key = `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""}`.trim();
    const entry = functions.get(key) ?? { part, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
  }
  const share = (ms: number) => ms / busyMs;
  return {
    file: path.relative(process.cwd(), file),
    busyMs,
    byPart: [...parts]
      .map(([part, ms]) => ({ part, ms, share: share(ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15),
    topFunctions: [...functions]
      .map(([fn, { part, ms }]) => ({ fn, part, ms, share: share(ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15),
  };
}

function partOf(functionName: string, url: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.includes("/build/server/")) return "store pages (build/server)";
  if (url.includes("/build/node/")) return "store server (build/node)";
  if (url.startsWith("node:")) {
    const module = url.replace(/^node:(internal\/)?/, "").split("/")[0];
    return `node:${module}`;
  }
  return url;
}
