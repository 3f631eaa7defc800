import type { ESLint } from "eslint";

/** The modules, each importing only those before it (lint/house-rules.js). */
export const MODULE_ORDER: readonly string[];
/** Modules outside the order: they import only `shared`, and no module imports them. */
export const STANDALONE_MODULES: readonly string[];

declare const house: ESLint.Plugin;
export default house;
