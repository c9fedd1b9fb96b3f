import { execFile } from 'node:child_process';

/**
 * UP-21: OSS's video snapshot (`x-oss-process=video/snapshot,...`) for the videos of the server's own storage, so
 * that a video message's thumbnail URL (UP-5) shows a frame of it, not the video's bytes an image cannot show. Frames
 * are taken by ffmpeg, run as a separate program with a time limit; without it, a snapshot is answered 404.
 */

/** A parsed `video/snapshot`: the time of the frame, its format, and the box it is scaled into (never enlarged). */
export interface SnapshotRequest {
  /** Milliseconds from the start (`t_`). Past the end of the video, the first frame is taken. */
  timeMs: number;
  format: 'jpg' | 'png';
  /** `w_`; 0 or missing: the video's own width, or scaled with the height. */
  width?: number;
  /** `h_`; 0 or missing: the video's own height, or scaled with the width. */
  height?: number;
}

/** Bounds of video snapshots (docs/limits.md). */
export const SNAPSHOT_LIMITS = {
  /** A side asked for, in pixels: 0 (the video's) to this, as images (UP-20). */
  sideMax: 4096,
  /** `t_` at most, in milliseconds: 24 hours. */
  timeMaxMs: 86_400_000,
  /** How long ffmpeg may take for one frame before it is killed. */
  timeoutMs: 20_000,
  /** How long ffmpeg may take to say its version when the server first looks for it. */
  probeTimeoutMs: 5_000,
} as const;

/**
 * ffmpeg's demuxer for each video extension the storage serves. The demuxer is named, never guessed from the file's
 * bytes: a file that says it is a video but holds a playlist (HLS, concat) would otherwise make ffmpeg open the
 * files or addresses the playlist names.
 */
const DEMUXERS: Record<string, string> = {
  mp4: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  quicktime: 'mov',
  avi: 'avi',
  flv: 'flv',
  rm: 'rm',
  rmvb: 'rm',
  webm: 'matroska',
};

/** Whether files of extension `ext` are videos a snapshot can be taken of. */
export function isVideoExtension(ext: string): boolean {
  return Object.hasOwn(DEMUXERS, ext);
}

/** ffmpeg's demuxer for files of extension `ext`, or undefined when they are no video (see {@link DEMUXERS}). */
export function demuxerOf(ext: string): string | undefined {
  return Object.hasOwn(DEMUXERS, ext) ? DEMUXERS[ext] : undefined;
}

/**
 * Parses OSS's `x-oss-process` value when it asks for a video snapshot: undefined when it does not (not a string,
 * or another operation), `'invalid'` when a parameter is unknown, repeated or out of bounds.
 */
export function parseVideoSnapshot(value: unknown): SnapshotRequest | 'invalid' | undefined {
  if (typeof value !== 'string') return undefined;
  if (value !== 'video/snapshot' && !value.startsWith('video/snapshot,')) return undefined;
  const out: SnapshotRequest = { timeMs: 0, format: 'jpg' };
  const seen = new Set<string>();
  for (const param of value.split(',').slice(1)) {
    const split = param.indexOf('_');
    if (split <= 0) return 'invalid';
    const name = param.slice(0, split);
    const text = param.slice(split + 1);
    if (seen.has(name)) return 'invalid';
    seen.add(name);
    if (name === 'f') {
      if (text !== 'jpg' && text !== 'png') return 'invalid';
      out.format = text;
    } else if (name === 'm') {
      // `fast` takes the key frame before `t_`; every frame here is taken at `t_` exactly, which is what it approximates.
      if (text !== 'fast') return 'invalid';
    } else if (name === 'ar') {
      // Frames are always turned as the video is shown (ffmpeg reads the rotation of the video's metadata).
      if (text !== 'auto' && text !== 'h' && text !== 'w') return 'invalid';
    } else {
      if (!/^\d{1,8}$/.test(text)) return 'invalid';
      const n = Number(text);
      if (name === 't') {
        if (n > SNAPSHOT_LIMITS.timeMaxMs) return 'invalid';
        out.timeMs = n;
      } else if (name === 'w' || name === 'h') {
        if (n > SNAPSHOT_LIMITS.sideMax) return 'invalid';
        if (n > 0) out[name === 'w' ? 'width' : 'height'] = n;
      } else return 'invalid';
    }
  }
  return out;
}

/** The name a snapshot is kept under among the sizes of its file (UP-20): every parameter. */
export function snapshotName(request: SnapshotRequest): string {
  const { timeMs, width = 0, height = 0, format } = request;
  return `snapshot-t${timeMs}-w${width}-h${height}.${format}`;
}

/** ffmpeg's scale filter for the box: inside it, the sides in proportion, never larger than the video's. */
function scaleFilter(request: SnapshotRequest): string | undefined {
  const { width, height } = request;
  if (width && height) {
    return `scale=w=min(iw\\,${width}):h=min(ih\\,${height}):force_original_aspect_ratio=decrease`;
  }
  if (width) return `scale=w=min(iw\\,${width}):h=-2`;
  if (height) return `scale=w=-2:h=min(ih\\,${height})`;
  return undefined;
}

/**
 * ffmpeg's arguments for one frame of `source` (a video of extension `ext`) at `timeMs`, written to `target`. Only
 * local files are opened, the demuxer is named (see {@link DEMUXERS}), and one thread decodes.
 */
export function snapshotArgs(source: string, ext: string, target: string, request: SnapshotRequest, timeMs: number) {
  const demuxer = DEMUXERS[ext];
  if (!demuxer) throw new Error(`not a video extension: ${ext}`);
  const scale = scaleFilter(request);
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-threads',
    '1',
    '-protocol_whitelist',
    'file',
    '-ss',
    (timeMs / 1000).toFixed(3),
    '-f',
    demuxer,
    '-i',
    `file:${source}`,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    ...(scale ? ['-vf', scale] : []),
    ...(request.format === 'jpg' ? ['-c:v', 'mjpeg', '-q:v', '3'] : ['-c:v', 'png']),
    '-f',
    'image2',
    '-y',
    `file:${target}`,
  ];
}

/** Runs `command` with `args`; resolves once it exits 0, rejects on another exit, a signal or `timeoutMs`. */
export function run(command: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024, windowsHide: true },
      (err: Error | null) => (err ? reject(err) : resolve()),
    );
  });
}

/**
 * Whether `command` is an ffmpeg that runs, asked once per process and remembered: `-version` exits 0 in time.
 * False for `false` (snapshots turned off).
 */
export function ffmpegProbe(command: string | false): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined;
  return () => {
    if (command === false) return Promise.resolve(false);
    answer ??= run(command, ['-hide_banner', '-version'], SNAPSHOT_LIMITS.probeTimeoutMs).then(
      () => true,
      () => false,
    );
    return answer;
  };
}
