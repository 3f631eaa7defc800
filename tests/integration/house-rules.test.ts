import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { MODULE_ORDER, STANDALONE_MODULES } from "../../lint/house-rules.js";
import { migrations } from "../../migrations/index";

/**
 * The rules of the house are lint rules (eslint.config.js): an import that breaks one fails
 * `npm run lint`. Each is shown here on a file as a newcomer might write it.
 */
const isHouseRule = (ruleId: string | null | undefined) =>
  Boolean(ruleId?.endsWith("no-restricted-imports") || ruleId?.startsWith("house/"));
/** The probes: the repository's configuration, running only the rules whose findings a probe reads. */
const houseRules = new ESLint({ ruleFilter: ({ ruleId }) => isHouseRule(ruleId) });
/**
 * The whole lint, every rule, with `npm run lint`'s cache (package.json, eslint.config.js): a
 * file unchanged since that lint, under the same configuration, is not linted twice.
 */
const wholeLint = new ESLint({ cache: true, cacheStrategy: "content", cacheLocation: "node_modules/.cache/eslint/" });

async function problemsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await houseRules.lintText(code, { filePath });
  return result!.messages.filter((message) => isHouseRule(message.ruleId)).map((message) => message.message);
}

/** A new file of a module (the providers are a layer among the modules), and a file of it to import. */
const fileOf = (module: string) =>
  module === "providers" ? "server/providers/new-kind/new-provider.ts" : `server/modules/${module}/new-feature.ts`;
const importOf = (from: string, to: string) => {
  const specifier = path.relative(path.dirname(from), to.replace(/\.ts$/, "")).split(path.sep).join("/");
  return `import { thing } from "${specifier.startsWith(".") ? specifier : `./${specifier}`}";\nexport const used = thing;\n`;
};

describe("the rules of the house", () => {
  it("keep HTTP out of the domain", async () => {
    const service = "server/modules/catalog/new-feature.service.ts";
    expect(await problemsOf(service, `import express from "express";\nexport const app = express();\n`)).toHaveLength(
      1,
    );
    expect(
      await problemsOf(service, `import { redirect } from "react-router";\nexport const go = redirect;\n`),
    ).toHaveLength(1);
    expect(
      await problemsOf(
        service,
        `import { apiErrorHandler } from "../../http/api-errors";\nexport { apiErrorHandler };\n`,
      ),
    ).toHaveLength(1);
    expect(
      await problemsOf(
        service,
        `import { NotFoundError } from "../shared/errors.shared";\nexport { NotFoundError };\n`,
      ),
    ).toEqual([]);
  });

  it("let route modules import from server/ only types and *.shared.ts files, and never a database driver", async () => {
    const route = "app/catalog/new-page.tsx";
    expect(
      await problemsOf(
        route,
        `import { CatalogService } from "../../server/modules/catalog/catalog.service";\nexport const s = CatalogService;\n`,
      ),
    ).toHaveLength(1);
    expect(await problemsOf(route, `import knex from "knex";\nexport const k = knex;\n`)).toHaveLength(1);
    expect(await problemsOf(route, `import type { Knex } from "knex";\nexport type K = Knex;\n`)).toHaveLength(1);
    expect(
      await problemsOf(
        route,
        `import type { PublicProduct } from "../../server/modules/catalog/product.model";\nexport type P = PublicProduct;\n`,
      ),
    ).toEqual([]);
    expect(
      await problemsOf(
        route,
        `import { CATEGORIES } from "../../server/modules/catalog/catalog-values.shared";\nexport const c = CATEGORIES;\n`,
      ),
    ).toEqual([]);
  });

  it("keep *.shared.ts files pure", async () => {
    const shared = "server/modules/catalog/new-values.shared.ts";
    expect(await problemsOf(shared, `import fs from "node:fs";\nexport const f = fs;\n`)).toHaveLength(1);
    expect(
      await problemsOf(shared, `import { Product } from "./product.model";\nexport const p = Product;\n`),
    ).toHaveLength(1);
    expect(
      await problemsOf(shared, `import { CATEGORIES } from "./catalog-values.shared";\nexport const c = CATEGORIES;\n`),
    ).toEqual([]);
  });

  it("let each module import only the modules below it, in both directions of every pair", async () => {
    for (const [low, lower] of MODULE_ORDER.entries()) {
      for (const higher of MODULE_ORDER.slice(low + 1)) {
        const upward = await problemsOf(fileOf(lower), importOf(fileOf(lower), fileOf(higher)));
        expect(upward, `${lower} importing ${higher}`).toHaveLength(1);
        expect(upward[0]).toContain(`The module ${lower} imports ${higher}, which is above it`);
        expect(
          await problemsOf(fileOf(higher), importOf(fileOf(higher), fileOf(lower))),
          `${higher} importing ${lower}`,
        ).toEqual([]);
      }
    }
  }, 120_000);

  it("keep a standalone module alone", async () => {
    for (const alone of STANDALONE_MODULES) {
      expect(await problemsOf(fileOf(alone), importOf(fileOf(alone), fileOf("catalog")))).toHaveLength(1);
      expect(await problemsOf(fileOf("reports"), importOf(fileOf("reports"), fileOf(alone)))).toHaveLength(1);
      expect(await problemsOf(fileOf(alone), importOf(fileOf(alone), fileOf("shared")))).toEqual([]);
      expect(await problemsOf("server/flows/new-flow.ts", importOf("server/flows/new-flow.ts", fileOf(alone)))).toEqual(
        [],
      );
    }
  });

  it("put the flows above the modules, and server/http and the pages above the flows", async () => {
    const flow = "server/flows/new-flow.ts";
    for (const module of [...MODULE_ORDER, ...STANDALONE_MODULES]) {
      expect(
        await problemsOf(fileOf(module), importOf(fileOf(module), flow)),
        `${module} importing a flow`,
      ).toHaveLength(1);
      expect(await problemsOf(flow, importOf(flow, fileOf(module))), `a flow importing ${module}`).toEqual([]);
    }
    expect(await problemsOf(flow, importOf(flow, "server/flows/checkout.ts"))).toEqual([]);
    expect(await problemsOf(flow, importOf(flow, "server/http/api-errors.ts"))).toHaveLength(1);
    expect(await problemsOf(flow, importOf(flow, "server/start-up/services.ts"))).toHaveLength(1);
    expect(await problemsOf(flow, importOf(flow, "app/lib/forms.tsx"))).toHaveLength(1);
    expect(await problemsOf(flow, `import express from "express";\nexport const app = express();\n`)).toHaveLength(1);
    expect(await problemsOf("server/http/new-adapter.ts", importOf("server/http/new-adapter.ts", flow))).toEqual([]);
    expect(
      await problemsOf("server/http/new-adapter.ts", importOf("server/http/new-adapter.ts", fileOf("orders"))),
    ).toEqual([]);
  });

  it("keep the database below what runs on it: no job runner, backups, start-up or HTTP in server/db", async () => {
    const db = "server/db/new-part.ts";
    expect(await problemsOf(db, importOf(db, "server/jobs/job-runner.ts"))).toHaveLength(1);
    expect(await problemsOf(db, importOf(db, "server/backups/wal-archive.ts"))).toHaveLength(1);
    expect(await problemsOf(db, importOf(db, "server/start-up/services.ts"))).toHaveLength(1);
    expect(await problemsOf(db, importOf(db, "server/http/api-errors.ts"))).toHaveLength(1);
    expect(await problemsOf(db, importOf(db, "server/flows/checkout.ts"))).toHaveLength(1);
    // What it may name: the migrations, the modules' shared values, a type of the logger.
    expect(await problemsOf(db, importOf(db, "migrations/index.ts"))).toEqual([]);
    expect(await problemsOf(db, importOf(db, "server/modules/shared/address.shared.ts"))).toEqual([]);
    expect(
      await problemsOf(db, `import type { Logger } from "../logging/logger";\nexport type Log = Logger;\n`),
    ).toEqual([]);
  });

  it("close the holes a module found: the Express app, node:http, the pages' form helpers, import() from a route, driver internals", async () => {
    const service = "server/modules/catalog/new-feature.service.ts";
    expect(
      await problemsOf(service, `import { createApp } from "../../app";\nexport const app = createApp;\n`),
    ).toHaveLength(1);
    expect(
      await problemsOf(service, `import http from "node:http";\nexport const server = http.createServer();\n`),
    ).toHaveLength(1);
    expect(
      await problemsOf(
        service,
        `import { formFailure } from "../../../app/lib/forms";\nexport const f = formFailure;\n`,
      ),
    ).toHaveLength(1);
    expect(await problemsOf(service, `export const load = () => import("../../services");\n`)).toHaveLength(1);
    expect(
      await problemsOf(
        service,
        `import QueryBuilder from "objection/lib/queryBuilder/QueryBuilder";\nexport const q = QueryBuilder;\n`,
      ),
    ).toHaveLength(1);
    const route = "app/catalog/new-page.tsx";
    expect(
      await problemsOf(
        route,
        `export async function loader() {\n  return (await import("../../server/modules/catalog/catalog.service")).CatalogService;\n}\n`,
      ),
    ).toHaveLength(1);
    expect(await problemsOf(route, `export const load = (name: string) => import(name);\n`)).toHaveLength(1);
    expect(
      await problemsOf(
        route,
        `export const values = () => import("../../server/modules/catalog/catalog-values.shared");\n`,
      ),
    ).toEqual([]);
    expect(
      await problemsOf(route, `import type { Knex } from "knex/types/index";\nexport type K = Knex;\n`),
    ).toHaveLength(1);
  });

  it("let the flows name no table: they ask the module that owns it", async () => {
    const flow = "server/flows/new-flow.ts";
    const module = "server/modules/fulfilment/new-feature.ts";
    const NAMES_A_TABLE = "Flows name no table: ask the module that owns it (server/modules).";
    const code = (...lines: string[]) => `${lines.join("\n")}\n`;
    const countsOrders = code(
      `import type { Knex } from "knex";`,
      `export const count = (trx: Knex) => trx("orders").count();`,
    );
    const joinsShipments = code(
      `import type { Knex } from "knex";`,
      `export const parcels = (events: Knex.QueryBuilder) => events.join("shipments as s", "s.id", "e.shipment_id");`,
    );
    const readsShipments = code(
      `import type { Knex } from "knex";`,
      `export class LoadSheet {`,
      `  constructor(private readonly db: Knex) {}`,
      '  numbers = () => this.db(`shipments`).select("trackingNumber");',
      `}`,
    );
    expect(await problemsOf(flow, countsOrders)).toEqual([NAMES_A_TABLE]);
    expect(await problemsOf(flow, joinsShipments)).toEqual([NAMES_A_TABLE]);
    expect(await problemsOf(flow, readsShipments)).toEqual([NAMES_A_TABLE]);
    // The same code in the module that owns the table, or in a flow's test setting up its rows.
    expect(await problemsOf(module, countsOrders)).toEqual([]);
    expect(await problemsOf(module, joinsShipments)).toEqual([]);
    expect(await problemsOf("server/flows/new-flow.test.ts", countsOrders)).toEqual([]);
    // A flow asking the module; an array's join and Node's path.join name no table.
    expect(
      await problemsOf(
        flow,
        code(
          `import type { Knex } from "knex";`,
          `import { lastShipment } from "../modules/fulfilment/shipments";`,
          `export const last = (trx: Knex, orderId: string) => lastShipment(trx, orderId);`,
        ),
      ),
    ).toEqual([]);
    expect(
      await problemsOf(
        flow,
        code(
          `import path from "node:path";`,
          `export const words = (names: string[]) => names.join(", ");`,
          `export const file = path.join("data", "texts");`,
        ),
      ),
    ).toEqual([]);
  });

  it("hold for the code as it is: no file imports one that imports it back, directly or around a loop", () => {
    expect(cyclesOf(importGraph(["server", "app"]))).toEqual([]);
    // The check finds a loop when there is one.
    expect(
      cyclesOf(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", ["a.ts"]],
          ["d.ts", ["a.ts"]],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("hold for the code as it is: the lint of the whole repository is clean", async () => {
    const results = await wholeLint.lintFiles(["app", "server"]);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it("run every migration file once, in the order of its date and number", () => {
    // Branches merged together append their entries to migrations/index.ts in merge order; the
    // list is run as written, so it must stay sorted and name every file.
    const listed = Object.keys(migrations);
    const files = fs
      .readdirSync(new URL("../../migrations", import.meta.url))
      .filter((name) => /^\d{14}_\w+\.ts$/.test(name))
      .map((name) => name.replace(/\.ts$/, ""));
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual([...files].sort());
  });
});

/**
 * Every .ts and .tsx file under these folders and the files of the repository it imports (types
 * too: a type imported both ways ties the two files as much), as TypeScript reads its imports.
 */
function importGraph(folders: string[]): Map<string, string[]> {
  const files = folders.flatMap((folder) => filesUnder(folder));
  const known = new Set(files);
  const resolve = (from: string, specifier: string) => {
    if (!specifier.startsWith(".")) return null;
    const base = path.join(path.dirname(from), specifier);
    return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((file) => known.has(file)) ?? null;
  };
  return new Map(
    files.map((file) => [
      file,
      ts
        .preProcessFile(fs.readFileSync(file, "utf8"), true, true)
        .importedFiles.flatMap(({ fileName }) => resolve(file, fileName) ?? []),
    ]),
  );
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : filesUnder(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** The files that import each other around a loop (Tarjan's strongly connected components), each loop sorted. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
