/**
 * The page side of the SDK upload tests, bundled with the SDK into one script (global `ParleyUploadPage`): it
 * connects a client, makes real media in the browser (a PNG from a canvas, a WAV written sample by sample, an MP4
 * recorded from a canvas with MediaRecorder), sends it, and reads back what arrived. Everything runs in the page;
 * the test only passes plain values in and out.
 */
import { createClient, ParleyError, type Message, type MessageTarget, type ParleyClient } from '../src/index.js';

/** How to connect this page's client. */
export interface ConnectOptions {
  url: string;
  appkey: string;
  id: string;
  otp: string;
}

/** A file's name, size, type and SHA-256 (hex). */
export interface FileFacts {
  name: string;
  size: number;
  type: string;
  sha256: string;
}

/** What the sending page saw. */
export interface SendReport {
  messageId: string;
  status: string;
  progress: number[];
  payload: unknown;
  file: FileFacts;
  error: { code: number; content: string } | undefined;
}

/** The media to make and send. */
export type MediaSpec =
  | { kind: 'image'; width: number; height: number }
  | { kind: 'audio'; seconds: number; sampleRate: number }
  | { kind: 'video'; width: number; height: number; milliseconds: number; color: [number, number, number] }
  | { kind: 'file'; bytes: number; name: string };

/** A downloaded file, and what the browser decodes from it. */
export interface Download {
  status: number;
  contentType: string | null;
  size: number;
  sha256: string;
}

/** What a media element or an image decoder reads from a URL. */
export interface Decoded {
  width: number;
  height: number;
  duration: number;
  /** The colour of the centre pixel, for images. */
  center: [number, number, number] | undefined;
}

let client: ParleyClient | undefined;
const received: Message[] = [];

function me(): ParleyClient {
  if (!client) throw new Error('connect() first');
  return client;
}

/** Connects this page's client and starts collecting private messages. */
export async function connect(options: ConnectOptions): Promise<void> {
  client = createClient({ host: options.url, appkey: options.appkey, modules: ['im'] });
  client.im.on('PRIVATE_MESSAGE_RECEIVED', (message) => received.push(message));
  await client.connect({ id: options.id, data: { name: options.id }, otp: options.otp });
}

/** Disconnects this page's client. */
export async function disconnect(): Promise<void> {
  await client?.disconnect();
}

async function sha256(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A PNG drawn on a canvas: a gradient, so that it is a real picture. */
async function png(width: number, height: number): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  const gradient = context.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, '#1e88e5');
  gradient.addColorStop(1, '#fdd835');
  context.fillStyle = gradient;
  context.fillRect(0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  return new File([blob!], 'drawing.png', { type: 'image/png' });
}

/** A mono 16-bit PCM WAV of a 440 Hz tone. */
function wav(seconds: number, sampleRate: number): File {
  const samples = Math.round(seconds * sampleRate);
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const text = (offset: number, value: string) =>
    [...value].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12000), true);
  }
  return new File([view.buffer], 'tone.wav', { type: 'audio/wav' });
}

/**
 * An MP4 recorded from a canvas filled with `color` (a small square moves in a corner, so that frames differ). The
 * file keeps the recorder's own type (`video/mp4;codecs=...`), as an app would hand it on.
 */
async function mp4(width: number, height: number, milliseconds: number, color: [number, number, number]) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  const mimeType = ['video/mp4;codecs=avc1', 'video/mp4'].find((t) => MediaRecorder.isTypeSupported(t));
  if (!mimeType) throw new Error('this browser cannot record MP4');
  const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  const draw = (frame: number) => {
    context.fillStyle = `rgb(${color.join(',')})`;
    context.fillRect(0, 0, width, height);
    context.fillStyle = '#ffffff';
    context.fillRect((frame * 4) % (width / 4), 0, 16, 16);
  };
  draw(0);
  recorder.start();
  const started = performance.now();
  for (let frame = 1; performance.now() - started < milliseconds; frame++) {
    await new Promise((resolve) => setTimeout(resolve, 33));
    draw(frame);
  }
  recorder.stop();
  await stopped;
  return new File(chunks, 'clip.mp4', { type: recorder.mimeType });
}

async function make(spec: MediaSpec): Promise<File> {
  switch (spec.kind) {
    case 'image':
      return png(spec.width, spec.height);
    case 'audio':
      return wav(spec.seconds, spec.sampleRate);
    case 'video':
      return mp4(spec.width, spec.height, spec.milliseconds, spec.color);
    case 'file':
      return new File([new Uint8Array(spec.bytes).map((_, i) => i % 251)], spec.name, {
        type: 'application/octet-stream',
      });
  }
}

/**
 * Makes the media, creates its message and sends it, collecting the progress. With `abortAtProgress`, the upload
 * is aborted from the first progress report above 0.
 */
export async function send(spec: MediaSpec, to: MessageTarget, abortAtProgress = false): Promise<SendReport> {
  const im = me().im;
  const file = await make(spec);
  const facts: FileFacts = { name: file.name, size: file.size, type: file.type, sha256: await sha256(file) };
  const progress: number[] = [];
  const controller = new AbortController();
  const onProgress = (percent: number) => {
    progress.push(percent);
    if (abortAtProgress && percent > 0) controller.abort();
  };
  const options = { file, to, onProgress, signal: controller.signal };
  const message =
    spec.kind === 'image'
      ? im.createImageMessage(options)
      : spec.kind === 'audio'
        ? im.createAudioMessage(options)
        : spec.kind === 'video'
          ? im.createVideoMessage(options)
          : im.createFileMessage(options);
  let error: SendReport['error'];
  try {
    await im.sendMessage({ message });
  } catch (e) {
    error = e instanceof ParleyError ? { code: e.code, content: e.content } : { code: -1, content: String(e) };
  }
  return {
    messageId: message.messageId,
    status: message.status,
    progress,
    payload: message.payload,
    file: facts,
    error,
  };
}

/** Sends a text message. */
export async function sendText(text: string, to: MessageTarget): Promise<string> {
  const message = me().im.createTextMessage({ text, to });
  await me().im.sendMessage({ message });
  return message.messageId;
}

/** Waits (up to `timeoutMs`) for a private message with this id. */
export async function receive(messageId: string, timeoutMs = 10_000): Promise<Message> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = received.find((m) => m.messageId === messageId);
    if (found) return found;
    if (performance.now() > deadline)
      throw new Error(`PRIVATE_MESSAGE_RECEIVED ${messageId}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ids of every private message received so far. */
export function receivedIds(): string[] {
  return received.map((m) => m.messageId);
}

/** Fetches a URL and hashes its body. */
export async function download(url: string): Promise<Download> {
  const response = await fetch(url);
  const body = await response.blob();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    size: body.size,
    sha256: await sha256(body),
  };
}

/** Decodes an image URL: its size and its centre pixel. */
export async function decodeImage(url: string): Promise<Decoded> {
  const bitmap = await createImageBitmap(await (await fetch(url)).blob());
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  const [r, g, b] = context.getImageData(bitmap.width >> 1, bitmap.height >> 1, 1, 1).data;
  const decoded: Decoded = { width: bitmap.width, height: bitmap.height, duration: 0, center: [r!, g!, b!] };
  bitmap.close();
  return decoded;
}

/** Loads an audio or video URL into a media element and reads its metadata (up to 10 s). */
export async function decodeMedia(url: string, kind: 'audio' | 'video'): Promise<Decoded> {
  const element = document.createElement(kind);
  element.muted = true;
  element.preload = 'metadata';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`loadedmetadata of ${url}: not within 10 s`)), 10_000);
    element.onloadedmetadata = () => {
      clearTimeout(timer);
      resolve();
    };
    element.onerror = () => {
      clearTimeout(timer);
      reject(new Error(`cannot play ${url}: ${element.error?.message ?? 'unknown error'}`));
    };
    element.src = url;
  });
  const video = element instanceof HTMLVideoElement ? element : undefined;
  return {
    width: video?.videoWidth ?? 0,
    height: video?.videoHeight ?? 0,
    duration: element.duration,
    center: undefined,
  };
}
