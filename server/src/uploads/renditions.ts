import { demuxerOf } from './snapshots.js';

/**
 * UP-22: the resolutions a product video is offered in (spec §2 "Video player resolutions: smooth, SD, HD,
 * Blu-ray"), as files beside the original in the server's own storage. This file holds what needs no process: the
 * ladder, the names, ffmpeg's arguments and what its answers mean.
 */

/** A resolution of the player, in the spec's order: smooth, SD, HD, Blu-ray. */
export type VideoQuality = 'smooth' | 'sd' | 'hd' | 'bluray';

/** One resolution a video has: its quality, where it is read, and its height in pixels. */
export interface VideoSource {
  quality: VideoQuality;
  url: string;
  height: number;
}

/** Each quality's height (by height, the sides in proportion): 360p, 480p, 720p, 1080p. */
export const RENDITION_LADDER: ReadonlyArray<{ quality: VideoQuality; height: number }> = [
  { quality: 'smooth', height: 360 },
  { quality: 'sd', height: 480 },
  { quality: 'hd', height: 720 },
  { quality: 'bluray', height: 1080 },
];

/** Bounds and defaults of renditions (docs/limits.md). */
export const RENDITION_LIMITS = {
  /** ffmpeg runs making renditions at once on a node, by default; more videos wait their turn. */
  concurrency: 1,
  /** Most ffmpeg runs at once a node may be configured for. */
  concurrencyMax: 8,
  /** How long ffmpeg may take for one rendition, by default, before it is killed. */
  timeoutMs: 600_000,
  /** How long ffmpeg may take to read a video's size. */
  probeTimeoutMs: 20_000,
  /** Videos waiting at most; past it a video keeps its original until it is asked for again. */
  queueMax: 1_000,
  /** The niceness ffmpeg runs at: the lowest priority, so that the server's own work comes first. */
  niceness: 19,
} as const;

/** The plan of one video: the quality its original stands for, and the lower ones to make. */
export interface RenditionPlan {
  /** The highest quality not above the video's height, which the original itself is; none for a smaller video. */
  original: VideoQuality | undefined;
  /** The qualities below it, smallest first. */
  make: ReadonlyArray<{ quality: VideoQuality; height: number }>;
}

/**
 * What a video `height` pixels high is offered in: the qualities not above its height, the highest of them being the
 * original itself (a copy at its own size would only lose quality), the others made from it. A video below 360
 * pixels has no quality: it is shown as it is.
 */
export function planRenditions(height: number): RenditionPlan {
  const fitting = RENDITION_LADDER.filter((step) => step.height <= height);
  const top = fitting.at(-1);
  return { original: top?.quality, make: fitting.slice(0, -1) };
}

/** The key of `key`'s rendition `height` pixels high, beside it: `<key>.<height>p.mp4`. No upload can take it. */
export function renditionKey(key: string, height: number): string {
  return `${key}.${height}p.mp4`;
}

/**
 * ffmpeg's arguments to read the video at `source` (of extension `ext`): it prints the streams and stops, as no
 * output is named. Only local files are opened and the demuxer is named, as for snapshots.
 */
export function probeArgs(source: string, ext: string): string[] {
  const demuxer = demuxerOf(ext);
  if (!demuxer) throw new Error(`not a video extension: ${ext}`);
  return ['-nostdin', '-hide_banner', '-protocol_whitelist', 'file', '-f', demuxer, '-i', `file:${source}`];
}

/**
 * The height a video is shown at, read from what ffmpeg prints of it: its first video stream's size, the sides
 * swapped when it is turned a quarter (a phone held upright). Undefined when there is no video stream.
 */
export function shownHeight(printed: string): number | undefined {
  const stream = /Stream #\d+:\d+\S*: Video: [^\n]*?[ ,](\d{1,5})x(\d{1,5})[ ,\]\n]/.exec(`${printed}\n`);
  if (!stream) return undefined;
  const width = Number(stream[1]);
  const height = Number(stream[2]);
  if (width === 0 || height === 0) return undefined;
  const rotation = /rotation of (-?\d+(?:\.\d+)?) degrees/.exec(printed.slice(stream.index));
  const quarter = rotation ? Math.round(Math.abs(Number(rotation[1])) / 90) % 2 === 1 : false;
  return quarter ? width : height;
}

/**
 * ffmpeg's arguments to make the rendition `height` pixels high of `source` at `target`: H.264 and AAC in an MP4
 * whose index comes first (`+faststart`), so that a browser starts playing before it has the whole file. The width
 * follows the height in proportion, rounded to an even number as H.264's 4:2:0 needs.
 */
export function renditionArgs(source: string, ext: string, target: string, height: number): string[] {
  const demuxer = demuxerOf(ext);
  if (!demuxer) throw new Error(`not a video extension: ${ext}`);
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'file',
    '-f',
    demuxer,
    '-i',
    `file:${source}`,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-sn',
    '-dn',
    '-vf',
    `scale=w=-2:h=${height}`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    `file:${target}`,
  ];
}

/** What is known of a video's renditions, kept beside them (`<root>/.renditions/<key>.json`). */
export type RenditionRecord =
  | { state: 'unreadable' }
  | { state: 'making' | 'done'; height: number; original: VideoQuality | undefined; made: number[] };

/** Parses a kept {@link RenditionRecord}; undefined for anything else (a file cut short, another program's). */
export function parseRecord(text: string): RenditionRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record['state'] === 'unreadable') return { state: 'unreadable' };
  const { state, height, original, made } = record;
  if (state !== 'making' && state !== 'done') return undefined;
  if (typeof height !== 'number' || !Array.isArray(made) || !made.every((n) => typeof n === 'number')) return undefined;
  const quality = RENDITION_LADDER.find((step) => step.quality === original)?.quality;
  return { state, height, original: quality, made };
}

/**
 * The sources of a video from its record: the renditions made, and the original for the quality it stands for,
 * smallest first; none while nothing is known of it.
 */
export function sourcesOf(record: RenditionRecord | undefined, key: string, urlOf: (key: string) => string) {
  if (!record || record.state === 'unreadable' || !record.original) return [];
  const sources: VideoSource[] = RENDITION_LADDER.filter((step) => record.made.includes(step.height)).map((step) => ({
    quality: step.quality,
    url: urlOf(renditionKey(key, step.height)),
    height: step.height,
  }));
  sources.push({ quality: record.original, url: urlOf(key), height: record.height });
  return sources;
}
