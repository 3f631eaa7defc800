import { redirect } from "react-router";
import { requestContext } from "../context";
import type { Route } from "./+types/logout";

/** Logging out is a POST (a link could be followed by a prefetch or an image tag). */
export async function action({ context }: Route.ActionArgs) {
  await context.get(requestContext).session.signOut();
  throw redirect("/", 303);
}

export function loader() {
  throw redirect("/");
}
