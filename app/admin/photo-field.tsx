import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { PHOTO_MAX_BYTES, PHOTO_MAX_PIXELS, photoFormatsText } from "../../server/modules/catalog/photo-values.shared";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import { ProductImage } from "../components/product-image";
import { trackUploadProgress } from "../lib/upload-progress";

const MIME_TYPES: Record<string, string[]> = {
  JPEG: ["image/jpeg"],
  PNG: ["image/png"],
  WebP: ["image/webp"],
  AVIF: ["image/avif"],
  HEIC: ["image/heic", "image/heif"],
};

/** The file picker's `accept` list for the formats the server reads. */
export function photoAccept(formats: readonly string[]): string {
  return formats.flatMap((format) => MIME_TYPES[format] ?? []).join(",");
}

/**
 * The product form's photo (docs/product.md, "Products"): a file input that works in any
 * browser, the current photo with a way to remove it, and, with JavaScript, a preview of the
 * chosen file and the upload's progress. The server reads the type from the file's bytes: the
 * `accept` list only helps the file picker.
 */
export function PhotoField({
  error,
  formats,
  product,
  removeChecked,
}: {
  error?: string;
  formats: string[];
  product: PublicProduct | null;
  removeChecked: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<{ url: string | null; name: string; tooLarge: boolean } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";

  const show = (file: File | undefined) => {
    if (!file || file.size === 0) {
      setPreview(null);
      return;
    }
    const tooLarge = file.size > PHOTO_MAX_BYTES;
    setPreview({ url: null, name: file.name, tooLarge });
    if (tooLarge) return;
    const reader = new FileReader();
    reader.addEventListener("load", () => {
      if (typeof reader.result === "string") setPreview({ url: reader.result, name: file.name, tooLarge });
    });
    reader.readAsDataURL(file);
  };

  // A file chosen before the page's script arrived is kept by the browser: preview it too.
  useEffect(() => show(input.current?.files?.[0]), []);
  // Each upload starts again from 0; the bar shows only while the form is being submitted.
  useEffect(() => trackUploadProgress(setProgress), []);

  const hintId = "field-image-hint";
  const errorId = "field-image-error";
  const megabytes = PHOTO_MAX_BYTES / 1024 / 1024;
  const megapixels = PHOTO_MAX_PIXELS / 1_000_000;
  return (
    <div className="field photo-field">
      <label htmlFor="field-image">Photo</label>
      {product ? (
        <div className="photo-field__current">
          <ProductImage
            src={product.imageUrl}
            images={product.images}
            alt={`Current photo of ${product.name}`}
            size={160}
          />
          <label className="checkbox">
            <input type="checkbox" name="removeImage" defaultChecked={removeChecked} />
            Remove this photo
          </label>
        </div>
      ) : null}
      <input
        ref={input}
        id="field-image"
        name="image"
        type="file"
        accept={photoAccept(formats)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : null, hintId].filter(Boolean).join(" ")}
        onChange={(event) => show(event.currentTarget.files?.[0])}
      />
      <p className="field-hint" id={hintId}>
        {`${photoFormatsText(formats)}, at most ${megabytes} MB and ${megapixels} megapixels: a phone's photo as it is. ` +
          `It is resized and converted here${product ? "; a new one replaces the current photo" : ""}.`}
      </p>
      {preview ? (
        <div className="photo-field__preview" aria-live="polite">
          {preview.url ? (
            <img
              src={preview.url}
              alt={`Preview of ${preview.name}`}
              width={160}
              height={160}
              onError={() => setPreview({ ...preview, url: null })}
            />
          ) : null}
          <span className="muted">
            {preview.tooLarge ? `${preview.name}: larger than ${megabytes} MB` : preview.name}
          </span>
        </div>
      ) : null}
      {submitting && progress !== null ? (
        <div className="photo-field__progress" role="status">
          <progress max={100} value={Math.round(progress * 100)} aria-label="Photo upload" />
          <span>{progress < 1 ? `Uploading photo… ${Math.round(progress * 100)}%` : "Processing photo…"}</span>
        </div>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
