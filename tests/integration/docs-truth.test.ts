import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MODULE_ORDER, STANDALONE_MODULES } from "../../lint/house-rules.js";
import { SETTING_NAMES } from "../../server/settings/config";
import {
  checkedDocs,
  classifyCodeSpan,
  documentedSettings,
  envReads,
  headingAnchors,
  indexRepository,
  missingPaths,
  modulesNotNamed,
  orderChains,
  settingsProblems,
  settingsReadInSource,
  type RepositoryIndex,
} from "../support/docs-truth";

/**
 * The documentation says what is (issue 46): every file or folder that README.md, SECURITY.md
 * and docs/*.md name exists, and every setting the server reads is in docs/operations.md's
 * settings table (and the table lists none it no longer reads). The rules that tell a repository
 * path from a URL, a runtime path (`DATA_DIR/messages`, `./data/outbox`) or a command are in
 * tests/support/docs-truth.ts; the checker's own tests below plant each kind of mistake in a fake
 * document, so a check that stopped seeing paths would fail here rather than pass in silence.
 *
 * Not checked: the decision records (docs/decisions/). Each is dated and says what was decided
 * then, with the files of that day; files move afterwards (modules split, the server's loose files
 * put in folders), and rewriting a record to follow them would make it say what was not decided.
 * Links to a record are checked like any other. Nor bench/README.md, a log of runs that names its
 * own git-ignored output (`bench/results/tmp/`). No database: this file reads files only.
 */
const ROOT = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const readDoc = (repositoryPath: string) => {
  const file = path.join(ROOT, repositoryPath);
  return fs.existsSync(file) && fs.statSync(file).isFile() ? fs.readFileSync(file, "utf8") : null;
};

describe("the documentation", () => {
  const index = indexRepository(ROOT);

  it("names only files and folders that exist", () => {
    const docs = checkedDocs(ROOT);
    expect(docs).toEqual(expect.arrayContaining(["README.md", "docs/operations.md", "docs/product.md"]));
    const problems = docs.flatMap((doc) => missingPaths(doc, readDoc(doc)!, index, readDoc));
    expect(problems.map((problem) => `${problem.doc}:${problem.line} ${problem.message}`)).toEqual([]);
  });

  it("lists every setting the server reads in docs/operations.md's settings table, and no other", () => {
    const read = new Set([...SETTING_NAMES, ...settingsReadInSource(ROOT)]);
    // Not vacuous: the schema's settings and those read by name (the brand's) are both found.
    expect(read).toContain("COURIER_PROVIDERS");
    expect(read).toContain("SITE_NAME");
    const documented = documentedSettings(readDoc("docs/operations.md")!, "Settings");
    expect(settingsProblems(read, documented)).toEqual({ missing: [], stale: [] });
  });

  it("writes the modules' import order as the lint enforces it, and names every module in the README", () => {
    for (const doc of ["README.md", "docs/recipes.md"]) {
      const chains = orderChains(readDoc(doc)!);
      expect(chains.length, `${doc} writes the modules' order`).toBeGreaterThan(0);
      for (const chain of chains) expect(chain, `${doc}: the order of lint/house-rules.js`).toEqual([...MODULE_ORDER]);
    }
    const modules = fs
      .readdirSync(path.join(ROOT, "server/modules"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(modules).toEqual(
      expect.arrayContaining([...MODULE_ORDER.filter((name) => name !== "providers"), ...STANDALONE_MODULES]),
    );
    expect(modulesNotNamed(readDoc("README.md")!, modules)).toEqual([]);
  });

  it("keeps README.md to what a newcomer reads first: at most 200 lines", () => {
    expect(readDoc("README.md")!.trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });
});

describe("the documentation's checker", () => {
  const fakeRepository: RepositoryIndex = {
    files: new Set([
      "README.md",
      "package.json",
      "docs/operations.md",
      "docs/api.md",
      "server/settings/config.ts",
      "server/modules/orders/order.shape.ts",
      "server/providers/couriers/courier-http.ts",
      "migrations/index.ts",
      "bench/results/load.md",
      "bench/results/load.json",
    ]),
    folders: new Set([
      "docs",
      "server",
      "server/modules",
      "server/modules/orders",
      "server/providers",
      "server/providers/couriers",
      "migrations",
      "bench",
      "bench/results",
    ]),
  };
  const fakeDocs: Record<string, string> = {
    "docs/operations.md": "# Operations\n\n## Backups\n\nText.\n\n## Two words\n",
  };
  const check = (markdown: string, docPath = "docs/guide.md") =>
    missingPaths(docPath, markdown, fakeRepository, (p) => fakeDocs[p] ?? null).map(
      (problem) => `${problem.line} ${problem.message}`,
    );

  it("passes paths that exist, written every way the docs write them", () => {
    const doc = [
      "The settings are read by `server/settings/config.ts`; the modules are in `server/modules/` and",
      "`./migrations/index.ts` lists the migrations, e.g. `migrations/<date>_<name>.ts`.",
      "Results: `bench/results/load.{md,json}`. A courier's calls: `courier-http.ts`,",
      "an order's shape: `orders/order.shape.ts`; `package.json` at the top.",
      "See [operations](operations.md), [its backups](operations.md#backups),",
      "[two words](operations.md#two-words), [the API](./api.md) and [the top](../README.md).",
    ].join("\n");
    expect(check(doc)).toEqual([]);
  });

  it("leaves runtime paths, URLs, commands and fenced code alone", () => {
    const doc = [
      "# Guide",
      "Texts go to `DATA_DIR/messages`, mails to `./data/outbox/`, backups to `BACKUP_DIR/wal`;",
      "`build/node/main.js` is built; open `/admin/settings/orders` or `GET /api/v1/products/{id}`;",
      "`https://api.postex.pk/services/integration/api/order`, `HOST=0.0.0.0`, `npm run bench`,",
      "`@react-router/dev`, `--replace`, `….secret.eml`, `<segment>.gz`, `image/webp`.",
      "Another project's `openapi/_original/postex-order-openapi.yml` and `leopards_client.py`.",
      "[PostEx's guide](https://example.com/guide.pdf), [the top](#guide)",
      "```sh",
      "cat server/nowhere.ts `server/nowhere-either.ts` [x](nowhere.md)",
      "```",
    ].join("\n");
    expect(check(doc)).toEqual([]);
  });

  it("finds a repository path that does not exist", () => {
    expect(check("Read `server/confg.ts` and `server/modules/ordrs/`.\n")).toEqual([
      "1 names `server/confg.ts`, which does not exist",
      "1 names `server/modules/ordrs/`, which does not exist",
    ]);
  });

  it("finds a file named where a folder is (and a folder named as a file)", () => {
    expect(check("`server/settings/config.ts/` and `server/modules`\n")).toEqual([
      "1 names `server/settings/config.ts/`, which does not exist",
    ]);
  });

  it("finds a placeholder path whose folder does not exist", () => {
    expect(check("Add `server/providers/payments/<method>.ts`.\n")).toEqual([
      "1 names `server/providers/payments/<method>.ts`, but its folder server/providers/payments/ does not exist",
    ]);
  });

  it("finds one of a brace's choices that does not exist", () => {
    expect(check("`bench/results/load.{md,csv}`\n")).toEqual([
      "1 names `bench/results/load.{md,csv}`, which does not exist",
    ]);
  });

  it("finds a bare file name and a partial path no file has", () => {
    expect(check("`courier-htttp.ts` and `orders/order.shapes.ts`\n")).toEqual([
      "1 names `courier-htttp.ts`, but no file in the repository has that name",
      "1 names `orders/order.shapes.ts`, but no file in the repository ends with that path",
    ]);
  });

  it("finds a link to a missing file, and one to a missing heading here or there", () => {
    expect(
      check("# Guide\n[ops](operations.md#restores), [gone](decisions/2020-01-01-gone.md), [up](#guid)\n"),
    ).toEqual([
      "2 links to operations.md#restores, but docs/operations.md has no heading with the anchor #restores",
      "2 links to decisions/2020-01-01-gone.md, which does not exist (docs/decisions/2020-01-01-gone.md)",
      "2 links to #guid, but docs/guide.md has no heading with that anchor",
    ]);
  });

  it("tells the kinds of code span apart", () => {
    expect(classifyCodeSpan("server/settings/config.ts")).toEqual({
      kind: "repository",
      path: "server/settings/config.ts",
    });
    expect(classifyCodeSpan(".ci/run")).toEqual({ kind: "repository", path: ".ci/run" });
    expect(classifyCodeSpan("tests/e2e/*.spec.ts")).toEqual({
      kind: "repository",
      path: "tests/e2e/*.spec.ts",
      upTo: "tests/e2e/",
    });
    expect(classifyCodeSpan("package.json")).toEqual({ kind: "file-name", path: "package.json" });
    expect(classifyCodeSpan("mail/mail-layout.ts")).toEqual({ kind: "partial", path: "mail/mail-layout.ts" });
    for (const notAPath of [
      "DATA_DIR/messages",
      "./data/outbox",
      "data-backups/wal",
      "/usr/bin/chromium",
      "SMTP_URL",
    ]) {
      expect(classifyCodeSpan(notAPath), notAPath).toBeNull();
    }
  });

  it("reads GitHub's anchors of headings", () => {
    const anchors = headingAnchors(
      "# Waqt — watches\n## Run it\n## `npm test`: one file\n## Run it\n```\n# not a heading\n```\n",
    );
    expect([...anchors]).toEqual(["waqt--watches", "run-it", "npm-test-one-file", "run-it-1"]);
  });

  it("reads the settings of a settings table, and finds one missing and one stale", () => {
    const doc = [
      "# Operations",
      "## Settings",
      "| setting | default | meaning |",
      "|---|---|---|",
      "| `PORT` | `3000` | the port, not `HOST` |",
      "### Mail",
      "| `SMTP_URL`, `MAIL_FROM` | — | mail |",
      "| `OLD_SETTING` | — | no longer read |",
      "## Backups",
      "| `BACKUP_DIR` | beside | not in the settings section |",
    ].join("\n");
    const documented = documentedSettings(doc, "Settings");
    expect([...documented].sort()).toEqual(["MAIL_FROM", "OLD_SETTING", "PORT", "SMTP_URL"]);
    const read = new Set(["PORT", "SMTP_URL", "MAIL_FROM", "HOST"]);
    expect(settingsProblems(read, documented)).toEqual({ missing: ["HOST"], stale: ["OLD_SETTING"] });
  });

  it("reads an import order written as a chain, and finds a module the README leaves out", () => {
    const doc =
      "Modules import down (shared < mail <\nproviders < accounts; contact alone): `shared/`, `mail/`, `accounts/`.";
    expect(orderChains(doc)).toEqual([["shared", "mail", "providers", "accounts"]]);
    expect(orderChains("a < b, and x < y < z")).toEqual([]);
    expect(modulesNotNamed(doc, ["shared", "mail", "accounts", "payments"])).toEqual(["payments"]);
  });

  it("finds the settings a source reads by name", () => {
    const source = [
      "const a = process.env.SITE_NAME;",
      "const b = env.STORE_EMAIL || 'x';",
      'const c = env["STORE_CITY"];',
      "const d = process.env[name];",
      "const e = environment.NOT_THIS;",
    ].join("\n");
    expect(envReads(source)).toEqual(["SITE_NAME", "STORE_EMAIL", "STORE_CITY"]);
  });
});
