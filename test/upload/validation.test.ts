import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS, MESSAGES, ParleyError } from '../../src/index.js';
import { connectedWithStorage, fileOf } from './support.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const tick = async (ms = 0): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const to = { type: 'private' as const, id: 'bob' };

function refusal(create: () => unknown): { code: number; content: string } | undefined {
  try {
    create();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ParleyError);
    return { code: (error as ParleyError).code, content: (error as ParleyError).content };
  }
}

describe('rich messages: file rules (product spec §5)', () => {
  it('UP-3: options and file must be given, and the file must be a real named File or Blob', async () => {
    const { im } = await connectedWithStorage(tick);
    const cases: Array<[unknown, string]> = [
      [undefined, MESSAGES.emptyMessage],
      [{ to }, MESSAGES.fileEmpty],
      [{ file: null, to }, MESSAGES.fileEmpty],
      [{ file: 'photo.png', to }, MESSAGES.wrongFileType],
      [{ file: { name: 'photo.png', size: 10 }, to }, MESSAGES.wrongFileType],
      [{ file: new Blob(['no name']), to }, MESSAGES.wrongFileType],
    ];
    for (const create of [im.createImageMessage, im.createFileMessage, im.createAudioMessage, im.createVideoMessage]) {
      for (const [options, content] of cases) {
        expect(refusal(() => create.call(im, options as never))).toEqual({ code: 400, content });
      }
    }
  });

  it('UP-3: the file is 1 byte to 30 MiB, for every kind', async () => {
    const { im } = await connectedWithStorage(tick);
    // A type each kind takes, so that only the size can refuse the file.
    const kinds = [
      [im.createImageMessage, 'a.png', 'image/png'],
      [im.createFileMessage, 'a.txt', 'text/plain'],
      [im.createAudioMessage, 'a.mp3', 'audio/mpeg'],
      [im.createVideoMessage, 'a.mp4', 'video/mp4'],
    ] as const;
    for (const [create, name, type] of kinds) {
      expect(
        refusal(() => create.call(im, { file: fileOf(name, 0, type), to })),
        name,
      ).toEqual({
        code: 400,
        content: 'File size is 0.',
      });
      expect(
        refusal(() => create.call(im, { file: fileOf(name, LIMITS.fileMaxBytes + 1, type), to })),
        name,
      ).toEqual({
        code: 400,
        content: 'message-length limit 30mib',
      });
      expect(
        refusal(() => create.call(im, { file: fileOf(name, LIMITS.fileMaxBytes, type), to })),
        name,
      ).toBe(undefined);
    }
  });

  it('UP-4: image, audio and video accept only their listed types, by MIME subtype or else extension', async () => {
    const { im } = await connectedWithStorage(tick);
    expect(refusal(() => im.createImageMessage({ file: fileOf('a.bmp', 3, 'image/bmp'), to }))).toEqual({
      code: 400,
      content: 'Only gif,jpg,png,jpeg is supported image.',
    });
    expect(refusal(() => im.createAudioMessage({ file: fileOf('a.flac', 3, 'audio/flac'), to }))).toEqual({
      code: 400,
      content: 'Only mp3,ogg,wav,wma,ape,acc,mpeg is supported audio.',
    });
    expect(refusal(() => im.createVideoMessage({ file: fileOf('a.mkv', 3), to }))).toEqual({
      code: 400,
      content: 'Only avi,mov,rmvb,rm,flv,mp4,3gp,quicktime is supported video.',
    });
    // The reference reads the MIME subtype: a .png named file typed image/bmp is refused, a nameless type is not.
    expect(refusal(() => im.createImageMessage({ file: fileOf('a.png', 3, 'image/bmp'), to }))).toBeDefined();
    expect(im.createImageMessage({ file: fileOf('photo', 3, 'image/jpeg'), to }).type).toBe('image');
    expect(im.createImageMessage({ file: fileOf('photo.PNG', 3), to }).payload).toMatchObject({
      contentType: 'image/png',
    });
    expect(im.createAudioMessage({ file: fileOf('voice', 3, 'audio/mpeg'), to }).type).toBe('audio');
    expect(im.createVideoMessage({ file: fileOf('clip.mov', 3, 'video/quicktime'), to }).type).toBe('video');
    expect(im.createFileMessage({ file: fileOf('anything.exe', 3), to }).payload).toEqual({
      url: '',
      name: 'anything.exe',
      size: 3,
      contentType: 'application/octet-stream',
    });
  });

  it('UP-4: MIME parameters are not part of the subtype (a browser recorder types its files video/mp4;codecs=avc1)', async () => {
    const { im } = await connectedWithStorage(tick);
    const recorded = im.createVideoMessage({ file: fileOf('clip.mp4', 3, 'video/mp4;codecs=avc1'), to });
    expect(recorded.payload).toMatchObject({ video: { contentType: 'video/mp4;codecs=avc1' } });
    expect(im.createAudioMessage({ file: fileOf('a.ogg', 3, 'audio/ogg; codecs=opus'), to }).type).toBe('audio');
    expect(refusal(() => im.createVideoMessage({ file: fileOf('a.webm', 3, 'video/webm;codecs=vp8'), to }))).toEqual({
      code: 400,
      content: 'Only avi,mov,rmvb,rm,flv,mp4,3gp,quicktime is supported video.',
    });
  });

  it('UP-3: the target is checked as for text messages', async () => {
    const { im } = await connectedWithStorage(tick);
    const file = fileOf('a.png', 3, 'image/png');
    expect(refusal(() => im.createImageMessage({ file, to: { type: 'private', id: 'me' } }))).toEqual({
      code: 400,
      content: MESSAGES.toSelf,
    });
    expect(refusal(() => im.createImageMessage({ file } as never))).toEqual({
      code: 400,
      content: MESSAGES.toRequired,
    });
  });
});
