import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { PreviousNextPages, pageFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/messages";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return services.contact.listMessages({ page: pageFromUrl(new URL(request.url).searchParams) });
}

export const meta: Route.MetaFunction = routeMeta({ title: "Messages", path: "/admin/messages", noindex: true });

/** The contact form's messages, newest first; a reply is an email to the sender. */
export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  const { messages, pagination } = loaderData;
  return (
    <section>
      <h1>Messages</h1>
      <p>
        {`${pagination.total} ${pagination.total === 1 ? "message" : "messages"} from the contact page, newest first.`}
      </p>
      {messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ul className="message-list">
          {messages.map((message) => (
            <li key={message._id} className="card">
              <article aria-labelledby={`message-${message._id}`}>
                <h2 id={`message-${message._id}`}>{message.subject}</h2>
                <p className="message__meta">
                  From {message.name} &lt;
                  <a href={`mailto:${message.email}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`}>
                    {message.email}
                  </a>
                  &gt; · <time dateTime={message.createdAt}>{formatStoreDateTime(message.createdAt)}</time>
                  {message.userId ? " · signed in" : null}
                </p>
                <p className="message__body">{message.message}</p>
              </article>
            </li>
          ))}
        </ul>
      )}
      <PreviousNextPages
        page={pagination.page}
        totalPages={pagination.pages}
        href={(page) => `/admin/messages?page=${page}`}
      />
    </section>
  );
}
