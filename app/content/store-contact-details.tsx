import type { StoreDetails } from "../../server/settings/store-details";

/** A phone number as a tel: link (digits and +, no spaces). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** The store's street address, as the footer and the contact page show it. */
export function StoreAddress({ store }: { store: StoreDetails }) {
  return (
    <>
      {store.address.street}
      <br />
      {`${store.address.city}, ${store.address.country}`}
    </>
  );
}

/** How to reach the store: email, phone, the Lahore address and the business hours (one setting). */
export function StoreContactDetails({ store }: { store: StoreDetails }) {
  return (
    <aside className="card contact-details" aria-labelledby="contact-details-heading">
      <h2 id="contact-details-heading">Get in touch</h2>
      <dl>
        <dt>Email</dt>
        <dd>
          <a href={`mailto:${store.email}`}>{store.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>
          <a href={telHref(store.phone)}>{store.phone}</a>
        </dd>
        <dt>Address</dt>
        <dd>
          <address>
            <StoreAddress store={store} />
          </address>
        </dd>
      </dl>
      <h3>Business Hours</h3>
      <table className="hours">
        <tbody>
          {store.businessHours.map((slot) => (
            <tr key={slot.days}>
              <th scope="row">{slot.days}</th>
              <td>{slot.hours}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}
