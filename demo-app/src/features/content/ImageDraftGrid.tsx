import { ProgressBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ImageTile, ImageTiles, type ImageGridLabels } from '../api/ImageGrid';
import { useObjectUrl } from '../im/useObjectUrl';
import type { DraftImage, ImageDraftState } from './useImageDraft';

/** A picked image shown from the device: its local copy lives as long as the tile (removed, or the page left). */
function DraftTile({
  image,
  n,
  labels,
  onRemove,
  disabled,
}: {
  image: DraftImage;
  n: number;
  labels: ImageGridLabels;
  onRemove: () => void;
  disabled: boolean;
}) {
  const preview = useObjectUrl(image.file);
  return (
    <ImageTile
      src={preview}
      alt={labels.image(n)}
      removeLabel={labels.remove(n)}
      onRemove={onRemove}
      disabled={disabled}
    />
  );
}

/**
 * A post's images as a grid of local previews, each with a remove button, and an add button while fewer than `max`
 * (several may be picked at once); nothing is uploaded until the post is published, whose progress shows under the
 * grid (with `progressTestId`), and while it runs the images cannot change.
 */
export function ImageDraftGrid({
  draft,
  max,
  labels,
  progressTestId,
}: {
  draft: ImageDraftState;
  max: number;
  labels: ImageGridLabels;
  progressTestId: string;
}) {
  const { t } = useTranslation();
  const { images, progress } = draft;
  const busy = progress !== undefined;
  return (
    <>
      <ImageTiles canAdd={images.length < max && !busy} addLabel={labels.add} onPick={draft.add} multiple>
        {images.map((image, index) => (
          <DraftTile
            key={image.id}
            image={image}
            n={index + 1}
            labels={labels}
            onRemove={() => draft.remove(image.id)}
            disabled={busy}
          />
        ))}
      </ImageTiles>
      {busy && (
        <div className="feedback-progress" data-testid={progressTestId}>
          <ProgressBar percent={progress} />
          <span>{t('common.publishing', { percent: progress })}</span>
        </div>
      )}
    </>
  );
}
