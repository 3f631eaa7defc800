import fs from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";

/**
 * The rules of the house are lint rules (eslint.config.js): an import that breaks one fails
 * `npm run lint`. Each is shown here on a file as a newcomer might write it.
 */
const eslint = new ESLint();

async function problemsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId?.endsWith("no-restricted-imports"))
    .map((message) => message.message);
}

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

  it("hold for the code as it is: the lint of the whole repository is clean", async () => {
    const results = await eslint.lintFiles(["app", "server"]);
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
