import { Form } from "react-router";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import { Field, FormActions, FormError, type FormFailure } from "../lib/forms";
import { specsFormValues } from "../../server/modules/catalog/watch-specs.shared";
import { WEIGHT_GRAMS_MAX } from "../../server/modules/catalog/catalog-values.shared";
import { PhotoField } from "./photo-field";
import { SpecsFields } from "./specs-fields";

/**
 * The fields of a product as the form shows them: the saved product (its Image URL field holds
 * the URL the admin gave, not the photo's), or what was just typed.
 */
export function productFormValues(
  product: PublicProduct | null,
  imageUrl: string,
  failure: FormFailure | undefined,
): Record<string, string> {
  if (failure) return failure.values;
  if (!product) return { category: "" };
  return {
    name: product.name,
    brand: product.brand,
    description: product.description,
    price: String(product.price),
    stock: String(product.stock),
    reorderLevel: String(product.reorderLevel),
    weightGrams: product.weightGrams === null ? "" : String(product.weightGrams),
    category: product.category,
    imageUrl,
    ...specsFormValues(product.specs),
  };
}

/**
 * Add and Edit share this form: every field required but brand, and a photo or an Image URL
 * (docs/product.md, "Products"); errors beside their fields. A multipart form, so that the photo
 * travels with the fields, with or without JavaScript. noValidate: the server's messages are the
 * ones shown, the same with or without JavaScript.
 */
export function ProductForm({
  values,
  failure,
  submitLabel,
  pendingLabel,
  photoFormats,
  product = null,
}: {
  values: Record<string, string>;
  failure: FormFailure | undefined;
  submitLabel: string;
  pendingLabel: string;
  /** The formats this server reads, for the hint and the file picker. */
  photoFormats: string[];
  /** The product being edited, whose photo (if any) is shown with a way to remove it. */
  product?: PublicProduct | null;
}) {
  const errors = failure?.fieldErrors ?? {};
  return (
    <>
      <FormError message={failure?.formError} />
      <Form method="post" encType="multipart/form-data" noValidate className="card">
        <Field
          name="name"
          label="Name"
          defaultValue={values.name}
          error={errors.name}
          required
          maxLength={200}
          autoComplete="off"
        />
        <Field
          name="brand"
          label="Brand (optional)"
          defaultValue={values.brand}
          error={errors.brand}
          maxLength={100}
          autoComplete="off"
        />
        <Field name="description" label="Description" error={errors.description}>
          <textarea
            id="field-description"
            name="description"
            rows={5}
            required
            maxLength={5000}
            defaultValue={values.description}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? "field-description-error" : undefined}
          />
        </Field>
        <div className="form-row">
          <Field
            name="price"
            label="Price (Rs.)"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            defaultValue={values.price}
            error={errors.price}
            required
          />
          <Field
            name="stock"
            label="Stock"
            type="number"
            inputMode="numeric"
            min={0}
            step="1"
            defaultValue={values.stock}
            error={errors.stock}
            required
          />
          <Field
            name="reorderLevel"
            label="Reorder level"
            type="number"
            inputMode="numeric"
            min={0}
            step="1"
            defaultValue={values.reorderLevel}
            error={errors.reorderLevel}
            hint="The stock report lists the watch at or below this stock. Empty: 2 for a new watch."
          />
          <Field
            name="weightGrams"
            label="Weight packed (grams)"
            type="number"
            inputMode="numeric"
            min={1}
            max={WEIGHT_GRAMS_MAX}
            step="1"
            defaultValue={values.weightGrams}
            error={errors.weightGrams}
            hint="Sent to the courier when a parcel is booked, times the quantity. Empty: the store's default weight a piece."
          />
        </div>
        <Field name="category" label="Category" error={errors.category}>
          <select
            id="field-category"
            name="category"
            required
            defaultValue={values.category ?? ""}
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={errors.category ? "field-category-error" : undefined}
          >
            <option value="">Choose a category</option>
            <option value="Men">Men</option>
            <option value="Women">Women</option>
          </select>
        </Field>
        <PhotoField
          error={errors.image}
          formats={photoFormats}
          product={product && product.images.length > 0 ? product : null}
          removeChecked={values.removeImage === "on"}
        />
        <Field
          name="imageUrl"
          label="Image URL"
          defaultValue={values.imageUrl}
          error={errors.imageUrl}
          maxLength={500}
          autoComplete="off"
          hint="Or an image on the web: an https:// address, or a site path such as /images/watches/name.svg. Shown when there is no photo."
        />
        <SpecsFields values={values} errors={errors} />
        <FormActions label={submitLabel} pendingLabel={pendingLabel} cancelTo="/admin/products" />
      </Form>
    </>
  );
}
