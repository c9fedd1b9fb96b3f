import { execFile, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { setPriority } from 'node:os';
import type { Logger } from '../logger.js';
import { extensionOf } from './keys.js';
import { scratchFile, type RenditionFiles } from './rendition-files.js';
import {
  RENDITION_LADDER,
  RENDITION_LIMITS,
  parseRecord,
  planRenditions,
  probeArgs,
  renditionArgs,
  renditionKey,
  shownHeight,
  sourcesOf,
  type RenditionRecord,
  type VideoSource,
} from './renditions.js';
import { ffmpegProbe, run, SNAPSHOT_LIMITS } from './snapshots.js';

/** How {@link Renditions} runs ffmpeg. */
export interface RenditionOptions {
  /** Where the videos, their renditions and what is known of them are: the server's own storage, or S3. */
  files: RenditionFiles;
  /** The ffmpeg program, or false for none (videos keep their original only). */
  ffmpeg: string | false;
  /** ffmpeg runs at once; 0 makes none. @default {@link RENDITION_LIMITS.concurrency} */
  concurrency?: number;
  /** How long one rendition may take before ffmpeg is killed. @default {@link RENDITION_LIMITS.timeoutMs} */
  timeoutMs?: number;
  logger: Logger;
}

/** A video being worked on: the ffmpeg running for it, and whether its file was deleted meanwhile. */
interface Job {
  cancelled: boolean;
  child: ChildProcess | undefined;
  done: Promise<void>;
}

/** Most records of finished videos kept in memory, so that showing them again reads nothing. */
const FINISHED_CACHED = 10_000;

/**
 * UP-22: makes the renditions of videos in the background, a few ffmpeg runs at a time at the lowest priority, and
 * says which a video has. What is known of a video is kept with the files ({@link RenditionFiles}), written after each
 * rendition, so that a video shown while it is worked on offers what is made so far, and one left half done by a
 * stopped server is taken up again the next time it is shown.
 */
export class Renditions {
  readonly #files: RenditionFiles;
  readonly #ffmpeg: string | false;
  readonly #concurrency: number;
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  /** How ffmpeg is started: through `nice` where the system has it, else directly (then lowered once started). */
  readonly #launch: () => Promise<{ command: string; prefix: string[] } | undefined>;
  readonly #queue = new Set<string>();
  readonly #running = new Map<string, Job>();
  /** The records of videos finished with (done, or unreadable), the least recently shown first. */
  readonly #finished = new Map<string, RenditionRecord>();
  /** Set once ffmpeg is known to be missing: nothing is put in line any more. */
  #missing = false;
  #closed = false;

  constructor(options: RenditionOptions) {
    this.#files = options.files;
    this.#ffmpeg = options.ffmpeg;
    this.#concurrency = options.ffmpeg === false ? 0 : (options.concurrency ?? RENDITION_LIMITS.concurrency);
    this.#timeoutMs = options.timeoutMs ?? RENDITION_LIMITS.timeoutMs;
    this.#logger = options.logger;
    const ffmpeg = options.ffmpeg;
    const direct = ffmpegProbe(ffmpeg);
    const niceness = String(RENDITION_LIMITS.niceness);
    let launch: Promise<{ command: string; prefix: string[] } | undefined> | undefined;
    this.#launch = () => {
      launch ??= (async () => {
        if (ffmpeg === false || !(await direct())) return undefined;
        // `nice` execs ffmpeg at the lowest priority from its first instruction, threads included.
        const prefix = ['-n', niceness, ffmpeg];
        const nice = await run('nice', [...prefix, '-hide_banner', '-version'], SNAPSHOT_LIMITS.probeTimeoutMs).then(
          () => true,
          () => false,
        );
        return nice ? { command: 'nice', prefix } : { command: ffmpeg, prefix: [] };
      })();
      return launch;
    };
  }

  /** Puts the video stored under `key` in line for its renditions, unless it waits or is worked on already. */
  enqueue(key: string): void {
    if (this.#closed || this.#concurrency === 0 || this.#missing) return;
    if (this.#queue.has(key) || this.#running.has(key)) return;
    if (this.#queue.size >= RENDITION_LIMITS.queueMax) {
      this.#logger.warn({ key }, 'video renditions: too many videos waiting; this one keeps its original for now');
      return;
    }
    this.#queue.add(key);
    this.#pump();
  }

  /**
   * The sources of the video stored under `key`, read by `urlOf(key)`; none while nothing is known of it. A video
   * never worked on, or left half done, is put in line.
   */
  async sources(key: string, urlOf: (key: string) => string): Promise<VideoSource[]> {
    try {
      const record = await this.#read(key);
      const unfinished = !record || record.state === 'making';
      const mayMake = this.#concurrency > 0 && !this.#missing && !this.#closed;
      if (unfinished && mayMake && !this.#running.has(key) && (await this.#files.exists(key))) this.enqueue(key);
      return sourcesOf(record, key, urlOf);
    } catch (err) {
      // The storage did not answer (S3 down, say): the video is shown as it is, and asked about again next time.
      this.#logger.warn({ err, key }, 'video renditions: what is known of the video could not be read');
      return [];
    }
  }

  /** Deletes the renditions of `key` and what is known of them, first stopping any ffmpeg making one. */
  async remove(key: string): Promise<void> {
    this.#queue.delete(key);
    const job = this.#running.get(key);
    if (job) {
      job.cancelled = true;
      job.child?.kill('SIGKILL');
      await job.done;
    }
    this.#finished.delete(key);
    for (const step of RENDITION_LADDER) await this.#files.remove(renditionKey(key, step.height));
    await this.#files.removeRecord(key);
  }

  /** Resolves once no video waits or is worked on. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()].map((job) => job.done));
  }

  /** Takes no more videos, drops those waiting and stops the ffmpeg running; what is made so far stays. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.clear();
    for (const job of this.#running.values()) {
      job.cancelled = true;
      job.child?.kill('SIGKILL');
    }
    await this.settled();
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#concurrency && this.#queue.size > 0) {
      const key = this.#queue.values().next().value!;
      this.#queue.delete(key);
      const job: Job = { cancelled: false, child: undefined, done: Promise.resolve() };
      job.done = this.#make(key, job)
        .catch((err: unknown) => {
          if (!job.cancelled) this.#logger.warn({ err, key }, 'video renditions failed; the original stays');
        })
        .finally(() => {
          this.#running.delete(key);
          this.#pump();
        });
      this.#running.set(key, job);
    }
  }

  async #make(key: string, job: Job): Promise<void> {
    const ext = extensionOf(key);
    const launch = await this.#launch();
    if (!launch) {
      if (!this.#missing) this.#logger.warn({ ffmpeg: this.#ffmpeg }, 'no ffmpeg: videos keep their original only');
      this.#missing = true;
      return;
    }
    let record = await this.#read(key);
    if (record?.state === 'done' || record?.state === 'unreadable') return;
    const source = await this.#files.local(key);
    if (!source) return;
    try {
      if (!record) {
        const printed = await this.#run(launch, job, probeArgs(source.path, ext), RENDITION_LIMITS.probeTimeoutMs);
        if (job.cancelled) return;
        const height = shownHeight(printed);
        if (height === undefined) {
          this.#logger.warn({ key }, 'video renditions: no picture ffmpeg can read; the original stays');
          return await this.#write(key, { state: 'unreadable' });
        }
        record = { state: 'making', height, original: planRenditions(height).original, made: [] };
        await this.#write(key, record);
      }
      const made = [...record.made];
      for (const step of planRenditions(record.height).make) {
        if (made.includes(step.height)) continue;
        const tmp = await scratchFile(this.#files.scratch, 'mp4');
        try {
          await this.#run(launch, job, renditionArgs(source.path, ext, tmp, step.height), this.#timeoutMs, true);
          if (job.cancelled) return;
          await this.#files.put(renditionKey(key, step.height), tmp);
        } catch (err) {
          if (job.cancelled) return;
          // Larger renditions would take longer still: the video keeps what is made.
          this.#logger.warn({ err, key, height: step.height }, 'video rendition failed; the video keeps what it has');
          break;
        } finally {
          await rm(tmp, { force: true });
        }
        made.push(step.height);
        await this.#write(key, { ...record, made });
      }
      if (!job.cancelled) await this.#write(key, { ...record, made, state: 'done' });
    } finally {
      await source.release();
    }
  }

  /**
   * Runs ffmpeg with `args` at the lowest priority, killed after `timeoutMs`; resolves with what it printed. With
   * `strict` a failed run rejects; without, it still resolves (reading a video's streams exits 1: no output named).
   */
  #run(
    launch: { command: string; prefix: string[] },
    job: Job,
    args: readonly string[],
    timeoutMs: number,
    strict = false,
  ): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        launch.command,
        [...launch.prefix, ...args],
        { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true },
        (err, _stdout, stderr) => {
          job.child = undefined;
          const failed = err !== null && (strict || err.killed === true || err.code === 'ENOENT');
          if (failed) reject(new Error(`ffmpeg failed: ${err.message}`, { cause: err }));
          else resolve(String(stderr));
        },
      );
      job.child = child;
      if (launch.command === 'nice' || child.pid === undefined) return;
      try {
        setPriority(child.pid, RENDITION_LIMITS.niceness);
      } catch {
        // A system that refuses the change still makes the rendition, at normal priority.
      }
    });
  }

  async #read(key: string): Promise<RenditionRecord | undefined> {
    const cached = this.#finished.get(key);
    if (cached) {
      this.#finished.delete(key);
      this.#finished.set(key, cached);
      return cached;
    }
    const text = await this.#files.readRecord(key);
    const record = text ? parseRecord(text) : undefined;
    if (record && record.state !== 'making') this.#remember(key, record);
    return record;
  }

  async #write(key: string, record: RenditionRecord): Promise<void> {
    await this.#files.writeRecord(key, JSON.stringify(record));
    if (record.state !== 'making') this.#remember(key, record);
  }

  #remember(key: string, record: RenditionRecord): void {
    this.#finished.set(key, record);
    if (this.#finished.size > FINISHED_CACHED) this.#finished.delete(this.#finished.keys().next().value!);
  }
}
