import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoPayload } from '../../src/index.js';
import { connectedWithStorage, fileOf } from './support.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const tick = async (ms = 0): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const to = { type: 'private' as const, id: 'bob' };

/** A canvas as far as the frame capture uses it: its size, what was drawn, and a JPEG it hands out. */
interface FakeCanvas {
  width: number;
  height: number;
  drawn: unknown[][];
  blob: Blob;
}

/**
 * The part of a browser's DOM a video probe touches: a `<video>` that reports `loadeddata` with the given metadata
 * once its `src` is set, and `<canvas>` elements that record what is drawn on them.
 */
function fakeVideoDom(meta: { videoWidth: number; videoHeight: number; duration: number }): FakeCanvas[] {
  const canvases: FakeCanvas[] = [];
  const createElement = (tag: string) => {
    if (tag === 'video') {
      const listeners = new Map<string, () => void>();
      return {
        ...meta,
        muted: false,
        preload: '',
        addEventListener: (event: string, listener: () => void) => listeners.set(event, listener),
        set src(_url: string) {
          queueMicrotask(() => listeners.get('loadeddata')?.());
        },
      };
    }
    const canvas: FakeCanvas = {
      width: 0,
      height: 0,
      drawn: [],
      blob: new Blob(['jpeg bytes'], { type: 'image/jpeg' }),
    };
    canvases.push(canvas);
    return Object.assign(canvas, {
      getContext: () => ({ drawImage: (...args: unknown[]) => canvas.drawn.push(args.slice(1)) }),
      toBlob: (done: (blob: Blob) => void) => done(canvas.blob),
    });
  };
  vi.stubGlobal('document', { createElement });
  return canvases;
}

describe('rich messages: the video frame captured in a browser', () => {
  it('UP-7: the frame is drawn at the thumbnail size the payload states (at most 200 high), and uploaded', async () => {
    const canvases = fakeVideoDom({ videoWidth: 1280, videoHeight: 720, duration: 4.5 });
    const { im, storage } = await connectedWithStorage(tick);
    const message = im.createVideoMessage({ file: fileOf('clip.mp4', 100, 'video/mp4'), to });
    await im.sendMessage({ message });

    const payload = message.payload as VideoPayload;
    expect(payload.video).toMatchObject({ width: 1280, height: 720, duration: 4.5 });
    expect(payload.thumbnail).toMatchObject({ width: 356, height: 200, contentType: 'image/jpeg' });
    expect(canvases.map((c) => [c.width, c.height, c.drawn])).toEqual([[356, 200, [[0, 0, 356, 200]]]]);
    expect(storage.posts.map((p) => p.file)).toEqual([expect.any(File), canvases[0]?.blob]);
  });

  it('UP-7: a video no more than 200 high keeps its own size for the frame', async () => {
    const canvases = fakeVideoDom({ videoWidth: 160, videoHeight: 120, duration: 1 });
    const { im } = await connectedWithStorage(tick);
    const message = im.createVideoMessage({ file: fileOf('clip.mp4', 100, 'video/mp4'), to });
    await im.sendMessage({ message });
    expect((message.payload as VideoPayload).thumbnail).toMatchObject({ width: 160, height: 120 });
    expect(canvases.map((c) => [c.width, c.height])).toEqual([[160, 120]]);
  });
});
