import { createContext, RouterContextProvider } from "react-router";
import type { PageSession, RequestContext } from "../server/http/request-context";

export type { PageSession, RequestContext };

/**
 * What every loader and action receives from the server: the services of the domain layer and
 * the signed-in user. Route modules import only types from server/, never its code.
 */
export const requestContext = createContext<RequestContext>();

/**
 * Builds the load context inside the React Router build, so that the context key the routes
 * read is the very one that is set (the Express server is bundled separately and would
 * otherwise hold a second copy of `requestContext`). Reached through entry.server's exports.
 */
export function createLoadContext(value: RequestContext): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestContext, value);
  return context;
}
