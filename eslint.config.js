import crypto from "node:crypto";
import fs from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import house from "./lint/house-rules.js";

/**
 * `npm run lint`. Besides the usual checks, the rules of the house are lint rules here, so that an
 * import that breaks one fails the lint (and CI):
 * - the one-way house (lint/house-rules.js): each module imports only the modules below it, the
 *   flows sit above the modules and server/http and the pages above the flows; the domain
 *   (modules, providers, flows) knows no HTTP; nothing imports a database driver's private files;
 * - route modules (app/) import from server/ only types and `*.shared.ts` files (pure values and
 *   functions, no database, no Node built-ins), never knex, objection or pg, and never import() a
 *   server file;
 * - a `*.shared.ts` file stays pure: it imports only other `*.shared.ts` files;
 * - the flows name no table (house/flows-name-no-table): a flow (server/flows, tests aside) asks the
 *   module that owns a table, never `trx("orders")`, `this.db("shipments")` or `.join("shipments")`.
 */
const PAGES_IMPORT_TYPES_OR_SHARED =
  "Route modules import from server/ only types and *.shared.ts files (pure values and functions): the services reach them through the request context (app/context.ts).";
const PAGES_NEVER_TOUCH_THE_DATABASE =
  "Route modules never reach the database: ask a service through the request context.";
const SHARED_STAYS_PURE =
  "A *.shared.ts file is pure (the pages' browser bundle may load it): it imports only other *.shared.ts files.";

/**
 * `npm run lint` keeps a cache (node_modules/.cache/eslint/), which the whole-repository lint of
 * tests/integration/house-rules.test.ts reads too. ESLint lints a file again when the file or this
 * configuration changed, but not when a plugin's code did: the house rules' source and the lock
 * file (every other plugin's version) are part of the configuration here, so that a change to
 * either lints every file again.
 */
const LINT_INPUTS = crypto
  .createHash("sha256")
  .update(fs.readFileSync(new URL("./lint/house-rules.js", import.meta.url)))
  .update(fs.readFileSync(new URL("./package-lock.json", import.meta.url)))
  .digest("hex");

const databaseDrivers = ["knex", "objection", "pg"].map((name) => ({ name, message: PAGES_NEVER_TOUCH_THE_DATABASE }));

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      "bench/baseline/build/",
      "bench/baseline/.react-router/",
    ],
  },
  { settings: { waqtLintInputs: LINT_INPUTS } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
    },
  },
  {
    // Tests read JSON answers whose shape is the thing under test.
    files: ["tests/**/*.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  reactHooks.configs.flat["recommended-latest"],
  {
    files: ["server/**/*.{ts,mjs}", "app/**/*.{ts,tsx}", "bench/**/*.ts", "seeds/**/*.ts", "migrations/**/*.ts"],
    plugins: { house },
    rules: { "house/one-way": "error", "house/no-server-import-from-pages": "error" },
  },
  {
    // Tests of a flow set up their tables as they like; they are no flow's code.
    files: ["server/flows/**/*.ts"],
    ignores: ["server/flows/**/*.test.ts"],
    plugins: { house },
    rules: { "house/flows-name-no-table": "error" },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: databaseDrivers,
          patterns: [
            {
              regex: "^(\\.\\./)+server/(?!.*\\.shared$)",
              allowTypeImports: true,
              message: PAGES_IMPORT_TYPES_OR_SHARED,
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.shared.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: databaseDrivers.map((path) => ({ ...path, message: SHARED_STAYS_PURE })),
          patterns: [
            { regex: "^node:", message: SHARED_STAYS_PURE },
            { regex: "^\\.{1,2}/(?!.*\\.shared$)", allowTypeImports: true, message: SHARED_STAYS_PURE },
          ],
        },
      ],
    },
  },
  prettier,
);
