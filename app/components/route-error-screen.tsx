import { isRouteErrorResponse } from "react-router";
import { ErrorScreen } from "./error-screen";
import { NotFoundScreen } from "./not-found-screen";

/**
 * What a page shows for an error its loader or action threw: the 404 page, a "busy" message
 * when the database does not answer (503), else the generic error screen (docs/product.md, "Texts")
 * with the store's own message when there is one (never a stack or driver text).
 */
export function RouteErrorScreen({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  if (isRouteErrorResponse(error) && error.status === 503) {
    return <ErrorScreen message="The store is busy or under maintenance. Please try again in a moment." />;
  }
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.status < 500 ? error.data : undefined;
  return <ErrorScreen message={message} />;
}
