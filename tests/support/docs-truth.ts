import fs from "node:fs";
import path from "node:path";

/**
 * What the documentation names must exist (tests/integration/docs-truth.test.ts): the files and
 * folders that README.md, SECURITY.md and docs/*.md name, and the settings that server/ reads,
 * each in the settings table of docs/operations.md. The rules that tell a repository path from other things
 * in backticks:
 *
 * - Only inline code spans (`…`) and relative markdown links count; fenced code blocks (shell
 *   sessions, examples) are left alone.
 * - A code span with whitespace, `://`, `=`, or that starts with `/` (a URL path, or a path on
 *   the machine such as /usr/bin/chromium), `~`, `$`, `@` (a package) or `-` (an option) is not a
 *   path.
 * - A path whose first folder is a setting (`DATA_DIR/messages`, `BACKUP_DIR/wal`) or a folder the
 *   store or its tools make (`./data/outbox`, `build/node/main.js`, `test-results/`) is a runtime
 *   path, not the repository's.
 * - A path starting with one of the repository's folders (REPOSITORY_FOLDERS) must exist, a
 *   folder if it ends with `/`. A placeholder (`<name>`, `*`, `…`) ends what is checked at the
 *   folder before it (`migrations/<date>_<name>.ts`: migrations/ must exist); `{a,b}` is each.
 * - A bare file name with a source or document extension (`courier-http.ts`, `package.json`) must
 *   be the name of a file somewhere in the repository (the text around it says where); a partial
 *   path ending in such a name (`orders/order.shape.ts`) must be the end of a file's path.
 * - A relative link must lead to a file or folder, and its #fragment to a heading of the Markdown
 *   file it leads to (GitHub's anchors).
 */
export const REPOSITORY_FOLDERS = [
  "app",
  "server",
  "migrations",
  "seeds",
  "public",
  "tests",
  "bench",
  "docs",
  "lint",
  ".ci",
];

/** Folders the store, the build and the tests make at run time (.gitignore); never the repository's. */
export const RUNTIME_FOLDERS = [
  "data",
  "data-backups",
  "data-fakes",
  "data-fakes-backups",
  "build",
  "node_modules",
  "test-results",
  "playwright-report",
  ".react-router",
  ".git",
];

/**
 * The kinds of file the repository holds: a bare name or partial path is checked only with one of
 * these (docs/couriers.md names other projects' `.yml`, `.php` and `.py` files as its sources).
 */
const FILE_EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|json|md|css|svg)$/;
const PLACEHOLDER = /[<>*…[\]|]|\.\.\./;

/** The repository as the checker sees it: every file and folder, relative, with `/` separators. */
export type RepositoryIndex = { files: Set<string>; folders: Set<string> };

export type NamedPath = { text: string; line: number; kind: "code" | "link" };

export type Problem = { doc: string; line: number; message: string };

/** Every file and folder under root as it is on disk, leaving out RUNTIME_FOLDERS (at any depth). */
export function indexRepository(root: string): RepositoryIndex {
  const files = new Set<string>();
  const folders = new Set<string>();
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (RUNTIME_FOLDERS.includes(entry.name)) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.add(child);
        walk(child);
      } else {
        files.add(child);
      }
    }
  };
  walk("");
  return { files, folders };
}

/** The Markdown files whose paths are checked: README.md, SECURITY.md and docs/*.md (not docs/decisions/: see the test). */
export function checkedDocs(root: string): string[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", "SECURITY.md", ...docs.sort()];
}

/** The inline code spans and relative link targets of a Markdown text, outside fenced code blocks. */
export function namedPaths(markdown: string): NamedPath[] {
  const named: NamedPath[] = [];
  let fenced = false;
  const prose: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      prose.push("");
      continue;
    }
    prose.push(fenced ? "" : line);
  }
  const text = prose.join("\n");
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  // A link's text in backticks is read as a code span as well.
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^([a-z][a-z0-9+.-]*:|\/)/i.test(target)) continue;
    named.push({ text: target, line: lineOf(match.index!), kind: "link" });
  }
  for (const match of text.matchAll(/`([^`]+)`/g)) {
    named.push({ text: match[1]!, line: lineOf(match.index!), kind: "code" });
  }
  return named;
}

/** `a/{b,c}.md` → a/b.md and a/c.md (one group), anything else as it is. */
function expandBraces(text: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(text);
  if (!match) return [text];
  return match[1]!
    .split(",")
    .map((choice) => text.slice(0, match.index) + choice + text.slice(match.index + match[0].length));
}

/**
 * What a code span is, by the rules above: a repository path (to check whole, or up to a
 * placeholder), a bare file name, a partial path, or nothing to check (null).
 */
export function classifyCodeSpan(
  span: string,
): { kind: "repository" | "file-name" | "partial"; path: string; upTo?: string } | null {
  const text = span.trim();
  if (!text || /\s/.test(text) || text.includes("://") || text.includes("=") || /^[/~$@-]/.test(text)) return null;
  const bare = text.replace(/^\.\//, "");
  const first = bare.split("/")[0]!;
  if (RUNTIME_FOLDERS.includes(first) || /^[A-Z][A-Z0-9_]*$/.test(first)) return null;
  if (bare.includes("/") && REPOSITORY_FOLDERS.includes(first)) {
    const segments = bare.split("/");
    const placeholderAt = segments.findIndex((segment) => PLACEHOLDER.test(segment));
    if (placeholderAt === -1) return { kind: "repository", path: bare };
    return { kind: "repository", path: bare, upTo: `${segments.slice(0, placeholderAt).join("/")}/` };
  }
  if (PLACEHOLDER.test(bare) || !FILE_EXTENSIONS.test(bare)) return null;
  if (!bare.includes("/")) return /^[A-Za-z0-9]/.test(bare) ? { kind: "file-name", path: bare } : null;
  return { kind: "partial", path: bare };
}

function exists(index: RepositoryIndex, repositoryPath: string): boolean {
  if (repositoryPath.endsWith("/")) return index.folders.has(repositoryPath.slice(0, -1));
  return index.files.has(repositoryPath) || index.folders.has(repositoryPath);
}

/** The anchors GitHub gives a Markdown file's headings. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * The paths a document names that do not exist in the repository. `read` gives another Markdown
 * file's text (for a link's #fragment), `docPath` is the document's own path in the repository.
 */
export function missingPaths(
  docPath: string,
  markdown: string,
  index: RepositoryIndex,
  read: (repositoryPath: string) => string | null,
): Problem[] {
  const problems: Problem[] = [];
  const say = (line: number, message: string) => problems.push({ doc: docPath, line, message });
  const allFiles = [...index.files];
  const allFolders = [...index.folders];
  for (const named of namedPaths(markdown)) {
    if (named.kind === "link") {
      const [target, fragment] = named.text.split("#") as [string, string | undefined];
      if (!target) {
        // A heading of this document.
        if (fragment && !headingAnchors(markdown).has(fragment)) {
          say(named.line, `links to #${fragment}, but ${docPath} has no heading with that anchor`);
        }
        continue;
      }
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(docPath), target));
      if (resolved.startsWith("..") || RUNTIME_FOLDERS.includes(resolved.split("/")[0]!)) continue;
      if (!exists(index, resolved.replace(/\/$/, "")) && !exists(index, resolved)) {
        say(named.line, `links to ${named.text}, which does not exist (${resolved})`);
        continue;
      }
      if (fragment && resolved.endsWith(".md")) {
        const linked = read(resolved);
        if (linked !== null && !headingAnchors(linked).has(fragment)) {
          say(named.line, `links to ${named.text}, but ${resolved} has no heading with the anchor #${fragment}`);
        }
      }
      continue;
    }
    for (const expanded of expandBraces(named.text)) {
      const span = classifyCodeSpan(expanded);
      if (!span) continue;
      if (span.kind === "repository") {
        const checked = span.upTo ?? span.path;
        if (!exists(index, checked)) {
          say(
            named.line,
            span.upTo
              ? `names \`${named.text}\`, but its folder ${span.upTo} does not exist`
              : `names \`${named.text}\`, which does not exist`,
          );
        }
      } else if (span.kind === "file-name") {
        if (!allFiles.some((file) => file === span.path || file.endsWith(`/${span.path}`))) {
          say(named.line, `names \`${named.text}\`, but no file in the repository has that name`);
        }
      } else if (
        !allFiles.some((file) => file.endsWith(`/${span.path}`)) &&
        !allFolders.some((folder) => `${folder}/`.endsWith(`/${span.path}`))
      ) {
        say(named.line, `names \`${named.text}\`, but no file in the repository ends with that path`);
      }
    }
  }
  return problems;
}

/**
 * The settings a settings table documents: each backticked NAME in the first cell of a table row
 * under the heading `heading` (down to the next heading of its level or above).
 */
export function documentedSettings(markdown: string, heading: string): Set<string> {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^#{1,6}\s/.test(line) && line.replace(/^#+\s+/, "").trim() === heading);
  if (start === -1) return new Set();
  const level = /^#+/.exec(lines[start]!)![0].length;
  const names = new Set<string>();
  for (const line of lines.slice(start + 1)) {
    const next = /^(#+)\s/.exec(line);
    if (next && next[1]!.length <= level) break;
    if (!line.startsWith("|")) continue;
    const firstCell = line.split("|")[1] ?? "";
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

/**
 * The settings server/ reads by name from the environment in its source (not its tests):
 * `process.env.NAME`, `env.NAME`, `env["NAME"]`. The settings read through the configuration's
 * schema come from the schema itself (SETTING_NAMES of server/settings/config.ts).
 */
export function settingsReadInSource(root: string, folder = "server"): Set<string> {
  const names = new Set<string>();
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const name of envReads(fs.readFileSync(path.join(root, child), "utf8"))) names.add(name);
      }
    }
  };
  walk(folder);
  return names;
}

/** The environment variables a source text reads by name. */
export function envReads(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/\b(?:process\.)?env\.([A-Z][A-Z0-9_]+)\b/g)) names.push(match[1]!);
  for (const match of source.matchAll(/\b(?:process\.)?env\[\s*["'`]([A-Z][A-Z0-9_]+)["'`]\s*\]/g)) {
    names.push(match[1]!);
  }
  return names;
}

/** Settings read but not in the table (missing), and in the table but no longer read (stale). */
export function settingsProblems(
  read: ReadonlySet<string>,
  documented: ReadonlySet<string>,
): { missing: string[]; stale: string[] } {
  return {
    missing: [...read].filter((name) => !documented.has(name)).sort(),
    stale: [...documented].filter((name) => !read.has(name)).sort(),
  };
}

/**
 * The import orders a Markdown text writes as a chain, `shared < mail < providers < …` (four
 * names or more, across line breaks), each as its list of names.
 */
export function orderChains(markdown: string): string[][] {
  const text = markdown.replace(/`/g, "").replace(/\s+/g, " ");
  return [...text.matchAll(/[a-z][a-z-]*(?: < [a-z][a-z-]*){3,}/g)].map((match) => match[0].split(" < "));
}

/** The module folders (`server/modules/<name>/`) that a text does not name as `<name>/` in backticks. */
export function modulesNotNamed(markdown: string, modules: readonly string[]): string[] {
  return modules.filter(
    (name) => !markdown.includes(`\`${name}/\``) && !markdown.includes(`\`server/modules/${name}/\``),
  );
}
