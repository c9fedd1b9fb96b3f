import { useEffect } from 'react';
import type { Area } from './crop';

/** The part of the picture the stand-in cropper reports chosen, in pixels. */
export const CHOSEN_AREA: Area = { x: 16, y: 0, width: 64, height: 64 };

/**
 * A stand-in for `react-easy-crop` in component tests (`vi.mock('react-easy-crop', () =>
 * import('.../fake-cropper'))`): jsdom neither lays out nor draws, so it reports {@link CHOSEN_AREA} once shown. The
 * real cropper and canvas run in the browser tests (e2e/profile.e2e.ts).
 */
export default function StandInCropper({
  onCropComplete,
}: {
  onCropComplete: (percentages: Area, pixels: Area) => void;
}) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => onCropComplete({ x: 25, y: 0, width: 50, height: 100 }, CHOSEN_AREA), []);
  return <div data-testid="cropper" />;
}
