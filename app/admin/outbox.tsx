import { Form, redirect } from "react-router";
import { OUTBOX_STATES, type OutboxState } from "../../server/modules/mail/outbox-values.shared";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { AdminListPage } from "./admin-list";
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

/** The mails the store sent or is sending: recipient, subject, state and why one failed. Never a body. */
export default function AdminOutbox({ loaderData }: Route.ComponentProps) {
  const { messages, pagination, counts, state } = loaderData;
  const pageLink = (page: number) => {
    const params = new URLSearchParams();
    if (state) params.set("state", state);
    if (page > 1) params.set("page", String(page));
    const query = params.toString();
    return query ? `/admin/outbox?${query}` : "/admin/outbox";
  };
  return (
    <AdminListPage
      title="Outbox"
      summary={`Every email the store sends, newest first: ${counts.queued} queued, ${counts.sent} sent, ${counts.failed} failed.`}
      note={
        <p>
          A message that cannot be delivered is tried again, waiting longer each time, and marked failed after its last
          attempt. Bodies are never shown; a reset link is deleted once its mail is sent or has failed.
        </p>
      }
      filters={{
        fields: [
          {
            kind: "select",
            name: "state",
            label: "State",
            value: state,
            options: [
              { value: "", label: "All" },
              ...OUTBOX_STATES.map((value) => ({ value, label: `${STATE_LABELS[value]} (${counts[value]})` })),
            ],
          },
        ],
        submitLabel: "Show",
      }}
      list={{
        rows: messages,
        rowKey: (message) => message._id,
        empty: "No messages.",
        columns: [
          { header: "Recipient", title: true, cell: (message) => message.recipient },
          {
            header: "Written",
            cell: (message) => <time dateTime={message.createdAt}>{formatStoreDateTime(message.createdAt)}</time>,
          },
          { header: "Subject", cell: (message) => message.subject },
          {
            header: "State",
            cell: (message) => (
              <span className={`badge badge--outbox badge--${message.state}`}>{STATE_LABELS[message.state]}</span>
            ),
          },
          { header: "Details", cell: (message) => <MessageDetails message={message} /> },
        ],
      }}
      pages={{ page: pagination.page, totalPages: pagination.totalPages, href: pageLink }}
    />
  );
}

type OutboxRow = Awaited<ReturnType<typeof loader>>["messages"][number];

/** When it was sent, when it is tried next, or why it failed (with Retry, unless its link was deleted). */
function MessageDetails({ message }: { message: OutboxRow }) {
  if (message.state === "sent") return message.sentAt ? `Sent ${formatStoreDateTime(message.sentAt)}` : null;
  if (message.state === "queued") {
    return message.attempts === 0
      ? "Waiting to be sent"
      : `Attempt ${message.attempts} failed: ${message.lastError ?? "unknown reason"}. Next try ${message.nextAttemptAt ? formatStoreDateTime(message.nextAttemptAt) : "soon"}.`;
  }
  return (
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
  );
}
