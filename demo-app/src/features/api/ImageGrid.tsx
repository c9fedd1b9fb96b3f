import { useRef, type ChangeEvent } from 'react';
import { UploadProgress } from './ImagePicker';
import type { useImageUpload } from './useImageUpload';

/** What the grid's controls are called, for the screen reader and the tests. */
export interface ImageGridLabels {
  /** The n-th image (from 1). */
  image: (n: number) => string;
  /** The button that removes the n-th image. */
  remove: (n: number) => string;
  /** The button, and the file input, that add one. */
  add: string;
}

/**
 * A form's images as a grid of thumbnails, each with a remove button, and an add button while fewer than `max`:
 * a picked image is uploaded at once with `uploader` (its progress shown under the grid, with `progressTestId`) and
 * added when it is stored.
 */
export function ImageGrid({
  uploader,
  images,
  onChange,
  max,
  labels,
  progressTestId,
}: {
  uploader: ReturnType<typeof useImageUpload>;
  images: readonly string[];
  onChange: (update: (images: string[]) => string[]) => void;
  max: number;
  labels: ImageGridLabels;
  progressTestId: string;
}) {
  const picker = useRef<HTMLInputElement>(null);
  const { progress, upload } = uploader;
  const uploading = progress !== undefined;

  const add = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const url = await upload(file);
    if (url !== undefined) onChange((list) => [...list, url].slice(0, max));
  };

  return (
    <>
      <div className="feedback-images">
        {images.map((url, index) => (
          <div className="feedback-image" key={`${url}-${index}`}>
            <img className="feedback-thumb" src={url} alt={labels.image(index + 1)} />
            <button
              type="button"
              className="feedback-image-remove"
              aria-label={labels.remove(index + 1)}
              onClick={() => onChange((list) => list.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </div>
        ))}
        {images.length < max && !uploading && (
          <button
            type="button"
            className="feedback-image-add"
            aria-label={labels.add}
            onClick={() => picker.current?.click()}
          >
            +
          </button>
        )}
      </div>
      <UploadProgress percent={progress} testId={progressTestId} />
      <input
        ref={picker}
        type="file"
        accept="image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif"
        aria-label={labels.add}
        hidden
        onChange={(event) => void add(event)}
      />
    </>
  );
}
