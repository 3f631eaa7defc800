import { createContext } from "react-router";
import type { PageSession, RequestContext } from "../server/http/request-context";

export type { PageSession, RequestContext };

/**
 * What every loader and action receives from the server (server/start-up/app.ts sets it for each
 * request): the services of the domain layer, the signed-in user, the session and the
 * request's details. The key is one object because the Express app and the route modules are
 * one bundle (server/index.ts).
 *
 * The rules of the house for route modules, kept by `npm run lint` (eslint.config.js): they
 * import from server/ only types, and pure values and functions from files named `*.shared.ts`
 * (no database, no Node built-ins); never knex, objection or pg. The domain (server/modules)
 * knows nothing of Express, React Router or server/http.
 */
export const requestContext = createContext<RequestContext>();
