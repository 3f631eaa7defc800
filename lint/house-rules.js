import path from "node:path";

/**
 * The one-way house as ESLint rules (docs/decisions/2026-11-25-module-graph.md), run by
 * `npm run lint` through eslint.config.js and shown failing by tests/integration/house-rules.test.ts.
 *
 * `house/one-way` checks every import of a file (static, `export … from`, and `import()`) against
 * the layers, bottom to top:
 * - server/modules/<module>: each module imports only itself and the modules before it in
 *   MODULE_ORDER (server/providers sits among them), server/db and server/settings/store-details.ts;
 *   `contact`, alone, imports only `shared`, and no module imports it;
 * - server/flows: the use cases spanning modules; they import modules, providers and each other;
 * - server/http and the pages (app/): above the flows. Route modules keep their own rule
 *   (eslint.config.js): only types and *.shared.ts files of server/, and never an import() of it.
 * Nothing below server/http imports HTTP (Express, React Router, node:http), and nothing reaches
 * into a database driver's private files (objection/lib/…).
 *
 * `house/flows-name-no-table` keeps the flows (server/flows, tests aside) off the tables: a table
 * has one owner, the module that keeps its rules, and a flow asks that module. It reads the calls
 * that name a table, not the text: the query builder's own (`trx("orders")`, `this.db("shipments")`,
 * `knex(…)`) and a builder's `.from`, `.into`, `.table`, `.join` (and its kinds) or `.withSchema`
 * with a string as its first argument.
 */

/** The modules, each importing only those before it. */
export const MODULE_ORDER = [
  "shared",
  "mail",
  "providers",
  "accounts",
  "orders",
  "payments",
  "fulfilment",
  "confirmation",
  "order-life",
  "catalog",
  "reviews",
  "cart",
  "discounts",
  "reports",
];
/** Modules outside the order: they import only `shared`, and no module imports them. */
export const STANDALONE_MODULES = ["contact"];

/**
 * What a module, a provider and a flow may import besides the domain: the database, the brand, and
 * the job queue's enqueueJob (a job is written in the caller's transaction, like a row).
 */
const INFRASTRUCTURE = [/^server\/db\//, /^server\/settings\/store-details\.ts$/, /^server\/jobs\/enqueue-job\.ts$/];

/** Packages that speak HTTP: the domain, the providers and the flows know none of them. */
const HTTP_PACKAGES = [
  /^express(\/|$)/,
  /^express-session(\/|$)/,
  /^react-router(\/|$)/,
  /^@react-router\//,
  /^react(-dom)?(\/|$)/,
  /^(node:)?https?$/,
  /^(node:)?http2$/,
];

/** A database driver's own files: not its public API, they change without notice. */
const DRIVER_INTERNALS = /^(objection|knex|pg)\/./;

const ROOT = path.resolve(import.meta.dirname, "..");

/** The layer a file of the repository is in, from its path relative to the root. */
export function layerOf(file) {
  const module = /^server\/modules\/([^/]+)\//.exec(file);
  if (module) return { kind: "module", name: module[1] };
  if (file.startsWith("server/providers/")) return { kind: "module", name: "providers" };
  if (file.startsWith("server/flows/")) return { kind: "flows" };
  if (file.startsWith("server/http/")) return { kind: "http" };
  if (file.startsWith("app/")) return { kind: "pages" };
  if (INFRASTRUCTURE.some((pattern) => pattern.test(file))) return { kind: "infrastructure" };
  if (file.startsWith("server/")) return { kind: "server" };
  return { kind: "other" };
}

/** Why `from` may not import `to` (both layers), or null when it may. */
export function refusal(from, to) {
  if (from.kind === "module") {
    if (to.kind === "module") {
      if (to.name === from.name) return null;
      if (STANDALONE_MODULES.includes(to.name)) {
        return `The module ${from.name} imports ${to.name}, which stands alone: only flows, http and pages use it.`;
      }
      if (STANDALONE_MODULES.includes(from.name)) {
        return to.name === "shared" ? null : `The module ${from.name} stands alone: it imports only shared.`;
      }
      const [mine, theirs] = [MODULE_ORDER.indexOf(from.name), MODULE_ORDER.indexOf(to.name)];
      if (theirs === -1) return `The module ${to.name} is not in MODULE_ORDER (lint/house-rules.js): place it.`;
      if (mine === -1) return `The module ${from.name} is not in MODULE_ORDER (lint/house-rules.js): place it.`;
      return theirs < mine
        ? null
        : `The module ${from.name} imports ${to.name}, which is above it (${MODULE_ORDER.join(" < ")}): put the work spanning both in a flow (server/flows), or move what is shared down.`;
    }
    if (to.kind === "infrastructure") return null;
    return `A module imports only modules below it, server/db and the brand; ${describe(to)} is above the modules.`;
  }
  if (from.kind === "infrastructure") {
    // The database knows nothing of what runs on it: not the job queue's runner, the backups, the
    // start-up or HTTP (they use it; a type, such as the logger's, may still be named).
    if (to.kind === "module" || to.kind === "infrastructure" || to.kind === "other") return null;
    return `server/db, the brand and enqueueJob import nothing above them; ${describe(to)} uses them instead.`;
  }
  if (from.kind === "flows") {
    if (to.kind === "module" || to.kind === "flows" || to.kind === "infrastructure") return null;
    return `A flow imports modules, providers and other flows; ${describe(to)} is above the flows.`;
  }
  return null;
}

function describe(layer) {
  if (layer.kind === "http") return "server/http";
  if (layer.kind === "pages") return "the pages (app/)";
  if (layer.kind === "flows") return "server/flows";
  return "this file of server/ (the composition, the Express app, the process)";
}

/** The repository path an import names, or null for a package. */
function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith(".")) return null;
  return path
    .relative(ROOT, path.resolve(path.dirname(path.join(ROOT, fromFile)), specifier))
    .split(path.sep)
    .join("/");
}

/** A target file's layer by its path without an extension (imports name files without one). */
function targetLayer(target) {
  const layer = layerOf(target.endsWith(".ts") || target.endsWith(".tsx") ? target : `${target}.ts`);
  return layer;
}

const oneWay = {
  meta: {
    type: "problem",
    docs: {
      description: "Imports follow the one-way house: modules downward, flows above them, HTTP and pages on top.",
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join("/");
    const from = layerOf(file);
    // Tests beside a module may set up what they test with anything; they are no module's code.
    const isTest = /\.test\.tsx?$/.test(file);
    const domain = from.kind === "module" || from.kind === "flows";

    function check(node, specifier) {
      if (DRIVER_INTERNALS.test(specifier)) {
        context.report({
          node,
          message: `${specifier} is a private file of its package: import the package itself.`,
        });
        return;
      }
      if (domain && HTTP_PACKAGES.some((pattern) => pattern.test(specifier))) {
        context.report({
          node,
          message: `The domain (server/modules, server/providers, server/flows) knows no HTTP: ${specifier} belongs in server/http or the pages.`,
        });
        return;
      }
      const target = resolveImport(file, specifier);
      if (target === null || isTest) return;
      const why = refusal(from, targetLayer(target));
      if (why) context.report({ node, message: why });
    }

    function checkSource(node) {
      // A type names no code: the infrastructure may name the types of the layers above it.
      if (from.kind === "infrastructure" && node.importKind === "type") return;
      if (node.source && typeof node.source.value === "string") check(node.source, node.source.value);
    }

    return {
      ImportDeclaration: checkSource,
      ExportNamedDeclaration: checkSource,
      ExportAllDeclaration: checkSource,
      ImportExpression(node) {
        if (node.source.type === "Literal" && typeof node.source.value === "string") {
          check(node.source, node.source.value);
        } else if (domain || from.kind === "pages") {
          context.report({
            node,
            message: "An import() of a computed name cannot be checked against the house rules: name the file.",
          });
        }
      },
    };
  },
};

/**
 * Route modules (app/) reach the server only through the request context: an import() of a
 * server file would load the domain into the page, past the static rule of eslint.config.js.
 */
const noServerImportFromPages = {
  meta: {
    type: "problem",
    docs: { description: "Route modules do not import() server files." },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join("/");
    if (layerOf(file).kind !== "pages") return {};
    return {
      ImportExpression(node) {
        if (node.source.type !== "Literal" || typeof node.source.value !== "string") return;
        const target = resolveImport(file, node.source.value);
        if (target !== null && target.startsWith("server/") && !/\.shared(\.ts)?$/.test(target)) {
          context.report({
            node,
            message:
              "Route modules import from server/ only types and *.shared.ts files, an import() as well: the services reach them through the request context (app/context.ts).",
          });
        }
      },
    };
  },
};

/** The names a flow's database handle goes by: `trx("orders")`, `this.db("orders")`, `knex("orders")`. */
const DATABASE_HANDLES = new Set(["db", "knex", "trx"]);
/** A query builder's methods whose first argument names a table. */
const TABLE_METHODS = new Set([
  "from",
  "into",
  "table",
  "join",
  "leftJoin",
  "innerJoin",
  "rightJoin",
  "fullOuterJoin",
  "withSchema",
]);
/**
 * JavaScript's and Node's own methods of those names (Array.from, Buffer.from, path.join,
 * console.table) name no table; nor does an array's join, whose one argument is a separator (a
 * query's join names its table and how: two arguments at least).
 */
const NOT_A_QUERY = new Set(["Array", "Buffer", "path", "console"]);

const isString = (node) =>
  node !== undefined &&
  (node.type === "TemplateLiteral" || (node.type === "Literal" && typeof node.value === "string"));

/** The name a callee ends in (`trx` for trx, `db` for this.db, `join` for query.join), or null. */
function lastName(callee) {
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier") {
    return callee.property.name;
  }
  return null;
}

/** Whether a call names a table: a database handle called with one, or a builder's method given one. */
function namesTable(call) {
  if (!isString(call.arguments[0])) return false;
  const name = lastName(call.callee);
  if (DATABASE_HANDLES.has(name)) return true;
  if (call.callee.type !== "MemberExpression" || !TABLE_METHODS.has(name)) return false;
  const { object } = call.callee;
  if (object.type === "Identifier" && NOT_A_QUERY.has(object.name)) return false;
  return name !== "join" || call.arguments.length >= 2;
}

/** A flow asks the module that owns a table, which keeps the table's rules in one place (see the top). */
const flowsNameNoTable = {
  meta: {
    type: "problem",
    docs: { description: "Flows name no table: they call the module that owns it." },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join("/");
    if (layerOf(file).kind !== "flows" || /\.test\.tsx?$/.test(file)) return {};
    return {
      CallExpression(node) {
        if (namesTable(node)) {
          context.report({ node, message: "Flows name no table: ask the module that owns it (server/modules)." });
        }
      },
    };
  },
};

export default {
  meta: { name: "house" },
  rules: {
    "one-way": oneWay,
    "no-server-import-from-pages": noServerImportFromPages,
    "flows-name-no-table": flowsNameNoTable,
  },
};
