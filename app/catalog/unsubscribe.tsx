import { Form, Link, data, redirect, useNavigation } from "react-router";
import { UNSUBSCRIBE_LINK_INVALID } from "../../server/modules/catalog/catalog-values.shared";
import { requestContext } from "../context";
import { FormError, formFailure, formValues } from "../lib/forms";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/unsubscribe";

/**
 * The link in a stock alert: a page with a button, since opening a link must change nothing
 * (mail scanners open links). Without a token, the page that says the alerts were stopped.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const token = new URL(request.url).searchParams.get("token");
  if (token === null) return { state: "done" as const, email: "", token: "" };
  try {
    const email = await services.stockAlerts.unsubscribeAddress({ token });
    return { state: "ask" as const, email, token };
  } catch {
    return data({ state: "invalid" as const, email: "", token: "" }, { status: 400 });
  }
}

/** Stops every stock alert to the link's address (docs/product.md, "Back in stock"). */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    const { email } = await services.stockAlerts.unsubscribe(values);
    session.setFlash({ tone: "success", message: `You will get no more stock alerts at ${email}.` });
  } catch (error) {
    return formFailure(error, values);
  }
  throw redirect("/unsubscribe", 303);
}

/** The address holds a secret token: no cache keeps the page. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = routeMeta({ title: "Stock alerts", path: "/unsubscribe", noindex: true });

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (loaderData.state === "invalid" || actionData?.formError) {
    return (
      <section className="auth-card">
        <h1>Stock alerts</h1>
        <FormError message={actionData?.formError ?? UNSUBSCRIBE_LINK_INVALID} />
        <p>
          Open the link from the stock alert email again, or <Link to="/contact">contact us</Link> and we will stop them
          for you.
        </p>
      </section>
    );
  }
  if (loaderData.state === "done") {
    return (
      <section className="auth-card">
        <h1>Stock alerts</h1>
        <p>
          When you ask to be told that a watch is back in stock, we send one email. Every such email has a link to stop
          all of them.
        </p>
        <p>
          <Link to="/products">Browse watches</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="auth-card">
      <h1>Stop stock alerts</h1>
      <p>
        Stop every &quot;back in stock&quot; email to <strong>{loaderData.email}</strong>? You can ask again on any
        watch&apos;s page.
      </p>
      <Form method="post" action="/unsubscribe">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="button button--block" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Stopping..." : "Stop Stock Alerts"}
        </button>
      </Form>
    </section>
  );
}
