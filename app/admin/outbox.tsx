import { Form, Link, redirect } from "react-router";
import { OUTBOX_STATES, type OutboxState } from "../../server/modules/mail/outbox-values.shared";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { PreviousNextPages, pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/outbox";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  // A page forgives: an unknown state is no filter.
  const state = (OUTBOX_STATES as readonly string[]).includes(params.get("state") ?? "") ? params.get("state")! : "";
  return services.outbox.listMessages({ page: pageFromUrl(params), state });
}

/** Puts a failed message back in the queue (docs/product.md, "Mail"). */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    const recipient = await services.outbox.retry(values);
    session.setFlash({ tone: "success", message: `The message to ${recipient} will be sent again` });
  } catch (error) {
    flashRefusal(session, error, "Failed to retry the message");
  }
  throw redirect("/admin/outbox?state=failed", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Outbox", path: "/admin/outbox", noindex: true });

const STATE_LABELS: Record<OutboxState, string> = { queued: "Queued", sent: "Sent", failed: "Failed" };

/** Pakistan's time, the same on the server and in the browser. */
function formatTime(iso: string): string {
  return new Date(iso).toLocaleString("en-PK", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Karachi" });
}

/** The mails the store sent or is sending: recipient, subject, state and why one failed. Never a body. */
export default function AdminOutbox({ loaderData }: Route.ComponentProps) {
  const { messages, pagination, counts, state } = loaderData;
  const filterLink = (value: string, page = 1) => {
    const params = new URLSearchParams();
    if (value) params.set("state", value);
    if (page > 1) params.set("page", String(page));
    const query = params.toString();
    return query ? `/admin/outbox?${query}` : "/admin/outbox";
  };
  return (
    <section>
      <h1>Outbox</h1>
      <p>
        {`Every email the store sends, newest first: ${counts.queued} queued, ${counts.sent} sent, ${counts.failed} failed. `}
        A message that cannot be delivered is tried again, waiting longer each time, and marked failed after its last
        attempt. Bodies are never shown; a reset link is deleted once its mail is sent or has failed.
      </p>
      <nav className="filters" aria-label="Show">
        {["", ...OUTBOX_STATES].map((value) => (
          <Link
            key={value || "all"}
            to={filterLink(value)}
            className={`button button--small ${value === state ? "" : "button--ghost"}`}
            aria-current={value === state ? "page" : undefined}
          >
            {value ? `${STATE_LABELS[value as OutboxState]} (${counts[value as OutboxState]})` : "All"}
          </Link>
        ))}
      </nav>
      {messages.length === 0 ? (
        <p>No messages.</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Written</th>
                <th scope="col">Recipient</th>
                <th scope="col">Subject</th>
                <th scope="col">State</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((message) => (
                <tr key={message._id}>
                  <td>
                    <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
                  </td>
                  <td>{message.recipient}</td>
                  <td>{message.subject}</td>
                  <td>
                    <span className={`badge badge--outbox badge--${message.state}`}>{STATE_LABELS[message.state]}</span>
                  </td>
                  <td>
                    {message.state === "sent" && message.sentAt ? `Sent ${formatTime(message.sentAt)}` : null}
                    {message.state === "queued"
                      ? message.attempts === 0
                        ? "Waiting to be sent"
                        : `Attempt ${message.attempts} failed: ${message.lastError ?? "unknown reason"}. Next try ${message.nextAttemptAt ? formatTime(message.nextAttemptAt) : "soon"}.`
                      : null}
                    {message.state === "failed" ? (
                      <>
                        <span>{`Failed after ${message.attempts} ${message.attempts === 1 ? "attempt" : "attempts"}: ${message.lastError ?? "unknown reason"}`}</span>
                        {message.purged ? (
                          <span className="muted"> (its reset link was deleted: send a new one from Manage Users)</span>
                        ) : (
                          <Form method="post" className="inline-form">
                            <input type="hidden" name="messageId" value={message._id} />
                            <button type="submit" className="button button--small">
                              <span>Retry</span>
                              <span className="visually-hidden">{` the message to ${message.recipient}`}</span>
                            </button>
                          </Form>
                        )}
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PreviousNextPages
        page={pagination.page}
        totalPages={pagination.totalPages}
        href={(page) => filterLink(state, page)}
      />
    </section>
  );
}
