/**
 * The inert script element that holds a page's module script until the first paint
 * (app/components/page-scripts.tsx): a type no browser runs. Its text becomes an inline module
 * script, so a cached page's policy allows that text by its hash (server/http/cached-page-scripts.ts).
 */
export const HELD_MODULE_TYPE = "text/x-held-module";
