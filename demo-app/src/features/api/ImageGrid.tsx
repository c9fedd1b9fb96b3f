import { useRef, type ChangeEvent, type ReactNode } from 'react';
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

/** One thumbnail of an image grid with its remove button; without `src` (no local preview) its name stands in. */
export function ImageTile({
  src,
  alt,
  removeLabel,
  onRemove,
  disabled = false,
}: {
  src: string | undefined;
  alt: string;
  removeLabel: string;
  onRemove: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="feedback-image">
      {src !== undefined ? (
        <img className="feedback-thumb" src={src} alt={alt} />
      ) : (
        <span className="feedback-thumb" role="img" aria-label={alt} />
      )}
      <button
        type="button"
        className="feedback-image-remove"
        aria-label={removeLabel}
        disabled={disabled}
        onClick={onRemove}
      >
        ×
      </button>
    </div>
  );
}

/**
 * The frame of an image grid: the tiles given as children, an add button while `canAdd` opening the device's
 * chooser (several images at once with `multiple`), and the hidden file input handing the picked files to `onPick`.
 */
export function ImageTiles({
  children,
  canAdd,
  addLabel,
  onPick,
  multiple = false,
}: {
  children: ReactNode;
  canAdd: boolean;
  addLabel: string;
  onPick: (files: File[]) => void;
  multiple?: boolean;
}) {
  const picker = useRef<HTMLInputElement>(null);
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    // Cleared so that picking the same file again still fires a change.
    event.target.value = '';
    if (files.length > 0) onPick(files);
  };
  return (
    <>
      <div className="feedback-images">
        {children}
        {canAdd && (
          <button
            type="button"
            className="feedback-image-add"
            aria-label={addLabel}
            onClick={() => picker.current?.click()}
          >
            +
          </button>
        )}
      </div>
      <input
        ref={picker}
        type="file"
        accept="image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif"
        aria-label={addLabel}
        multiple={multiple}
        hidden
        onChange={picked}
      />
    </>
  );
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
  const { progress, upload } = uploader;
  const uploading = progress !== undefined;

  const add = async ([file]: File[]) => {
    if (!file) return;
    const url = await upload(file);
    if (url !== undefined) onChange((list) => [...list, url].slice(0, max));
  };

  return (
    <>
      <ImageTiles canAdd={images.length < max && !uploading} addLabel={labels.add} onPick={(files) => void add(files)}>
        {images.map((url, index) => (
          <ImageTile
            key={`${url}-${index}`}
            src={url}
            alt={labels.image(index + 1)}
            removeLabel={labels.remove(index + 1)}
            onRemove={() => onChange((list) => list.filter((_, i) => i !== index))}
          />
        ))}
      </ImageTiles>
      <UploadProgress percent={progress} testId={progressTestId} />
    </>
  );
}
