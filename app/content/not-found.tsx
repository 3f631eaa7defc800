import { data } from "react-router";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/not-found";
import { NotFoundScreen } from "../components/not-found-screen";

/** Any path that no page claims: "Page not found", answered with status 404. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = routeMeta({ title: "Page not found", noindex: true });

export default function NotFound() {
  return <NotFoundScreen />;
}
