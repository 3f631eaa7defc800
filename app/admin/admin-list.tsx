import type { ReactNode } from "react";
import { Form } from "react-router";
import { Field } from "../lib/forms";
import { PreviousNextPages } from "../lib/list-pages";

/**
 * The admin's lists (products, users, orders, returns, discount codes, the outbox), written once:
 * the page's heading and its main action, a line of figures, the filter form, the list and its
 * pages. The list is a table on a wide screen and a card a row on a phone, each value with its
 * column's name (app.css, ".admin-table"): nothing is wider than the screen.
 */
export function AdminListPage<Row>({
  title,
  action,
  summary,
  note,
  filters,
  tools,
  list,
  pages,
  children,
}: {
  title: string;
  /** A link beside the heading, e.g. "Add Product". */
  action?: ReactNode;
  /** The count (and what it adds up to), under the heading. */
  summary?: string;
  /** What the list is, in a sentence or two. */
  note?: ReactNode;
  filters?: ListFiltersProps;
  /** Links for the list as filtered (printing, exporting). */
  tools?: ReactNode;
  list: AdminTableProps<Row>;
  pages?: { page: number; totalPages: number; href: (page: number) => string };
  /** Anything else the page shows over its list (a dialog). */
  children?: ReactNode;
}) {
  return (
    <section className="admin-list">
      <header className="page-header">
        <h1>{title}</h1>
        {action}
      </header>
      {summary ? <p className="admin-list__summary">{summary}</p> : null}
      {note ? <div className="admin-list__note muted">{note}</div> : null}
      {filters ? <ListFilters {...filters} /> : null}
      {/* A block of its own, not a paragraph: tools may be forms ("Book selected"), and the
          browser's parser closes a <p> at a <form>, so the page would no longer hydrate. */}
      {tools ? <div className="actions">{tools}</div> : null}
      <AdminTable {...list} />
      {children}
      {pages ? <PreviousNextPages {...pages} /> : null}
    </section>
  );
}

/** One field of a list's filter form. */
export type ListFilter =
  | { kind: "search"; name: string; label: string; value: string; hint?: string; error?: string; maxLength: number }
  | { kind: "date"; name: string; label: string; value: string; error?: string }
  | {
      kind: "select";
      name: string;
      label: string;
      value: string;
      options: readonly { value: string; label: string }[];
    };

export type ListFiltersProps = { fields: readonly ListFilter[]; submitLabel: string };

/**
 * A list's filters: a plain GET form, so a filter is an address to keep or share, and works
 * without JavaScript. It is drawn anew for each filter shown (its fields' defaults are the URL's).
 */
function ListFilters({ fields, submitLabel }: ListFiltersProps) {
  const shown = JSON.stringify(fields.map((field) => [field.name, field.value]));
  return (
    <Form method="get" className="filters" role="search" key={shown}>
      {fields.map((field) => {
        if (field.kind === "select") {
          return (
            <Field key={field.name} name={field.name} label={field.label}>
              <select id={`field-${field.name}`} name={field.name} defaultValue={field.value}>
                {field.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </Field>
          );
        }
        return (
          <Field
            key={field.name}
            name={field.name}
            label={field.label}
            type={field.kind}
            defaultValue={field.value}
            error={field.error}
            hint={field.kind === "search" ? field.hint : undefined}
            maxLength={field.kind === "search" ? field.maxLength : undefined}
          />
        );
      })}
      <button type="submit" className="button">
        {submitLabel}
      </button>
    </Form>
  );
}

/** A column: its name, and what it shows of a row. */
export type ListColumn<Row> = {
  header: string;
  cell: (row: Row, index: number) => ReactNode;
  /** The row's name (a code, an order number, a person): on a phone, the card's first line. */
  title?: boolean;
};

export type AdminTableProps<Row> = {
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly ListColumn<Row>[];
  /** Said instead of an empty table. */
  empty: string;
};

/** The rows as a table, and on a phone as cards (each value under its column's name). */
export function AdminTable<Row>({ rows, rowKey, columns, empty }: AdminTableProps<Row>) {
  if (rows.length === 0) return <p>{empty}</p>;
  return (
    <table className="table admin-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td
                key={column.header}
                data-label={column.header}
                className={column.title ? "admin-table__title" : undefined}
              >
                <div className="admin-table__value">{column.cell(row, index)}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
