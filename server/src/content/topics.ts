import { randomBytes } from 'node:crypto';
import type { TopicRecord, TopicStore, TopicWithCount } from '../store/index.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import { badRequest, type CatalogEditResult } from './catalog.js';
import { isHttpUrl } from './text.js';

/** Bounds of topics (docs/limits.md). */
export const TOPIC_LIMITS = {
  /** A topic's title: 1 to this many characters (Unicode code points) after trimming. */
  titleMax: 20,
  /** Its introduction: at most this many characters after trimming. */
  introMax: 200,
  /** Its picture: an http(s) URL of at most this many characters, or empty. */
  imgMax: 1024,
  /** Topics the operator keeps, at most. */
  max: 200,
} as const;

/** A result of the operator's change of topics. */
export type TopicEditResult = CatalogEditResult<TopicRecord>;
type TopicEditFailure = Extract<TopicEditResult, { ok: false }>;

/**
 * Topics of the circle (spec §2 topic/index, topic/list; §8 "topic does not exist or was deleted"): the operator sets
 * them up; members post under one. No HTTP here.
 */
export interface TopicService {
  /** Every topic, the most posts first, then the newest. */
  all(): Promise<TopicWithCount[]>;
  /** The titles of those of `ids` that are topics not removed. */
  titles(ids: readonly string[]): Promise<Map<string, string>>;
  /** Topic `id`: `topic_missing` when there is none, or it was removed. */
  byId(id: unknown): Promise<MemberResult<TopicRecord>>;
  /** The operator adds a topic: `{title, intro?, img?}`. */
  add(fields: Record<string, unknown>): Promise<TopicEditResult>;
  /** The operator changes topic `id`: any of `{title, intro, img}`. */
  update(id: string, fields: Record<string, unknown>): Promise<TopicEditResult>;
  /** The operator removes topic `id`: its posts stay, in no topic. */
  remove(id: string): Promise<TopicEditResult>;
}

const notFound: TopicEditFailure = { ok: false, failure: 'not_found', message: 'topic does not exist.' };

/** The checked fields of the operator's change, or why they are refused. */
function fieldsOf(
  fields: Record<string, unknown>,
  required: boolean,
): { title?: string; intro?: string; img?: string } | TopicEditFailure {
  const { title, intro, img } = fields;
  const out: { title?: string; intro?: string; img?: string } = {};
  if (title !== undefined || required) {
    const trimmed = typeof title === 'string' ? title.trim() : '';
    const length = [...trimmed].length;
    if (length === 0 || length > TOPIC_LIMITS.titleMax || /\p{Cc}/u.test(trimmed)) {
      return badRequest(`title must be 1 to ${TOPIC_LIMITS.titleMax} characters.`);
    }
    out.title = trimmed;
  }
  if (intro !== undefined) {
    const trimmed = typeof intro === 'string' ? intro.trim() : undefined;
    if (trimmed === undefined || [...trimmed].length > TOPIC_LIMITS.introMax || /\p{Cc}/u.test(trimmed)) {
      return badRequest(`intro must be at most ${TOPIC_LIMITS.introMax} characters.`);
    }
    out.intro = trimmed;
  }
  if (img !== undefined) {
    if (img !== '' && !isHttpUrl(img, TOPIC_LIMITS.imgMax)) return badRequest('img must be an http(s) URL or empty.');
    out.img = img;
  }
  return out;
}

/** Creates the topic service over the store. */
export function createTopicService(deps: { topics: TopicStore; now: () => number }): TopicService {
  const { topics } = deps;
  const found = async (id: string): Promise<TopicEditResult> => {
    const topic = await topics.byId(id);
    return topic ? { ok: true, value: topic } : notFound;
  };
  return {
    all: () => topics.all(),
    titles: (ids) => topics.titles(ids),
    async byId(id) {
      if (!isRowKey(id) || id === undefined) return { ok: false, failure: 'topic_missing' };
      const topic = await topics.byId(id);
      return topic ? { ok: true, value: topic } : { ok: false, failure: 'topic_missing' };
    },
    async add(fields) {
      const checked = fieldsOf(fields, true);
      if ('ok' in checked) return checked;
      const record: TopicRecord = {
        id: randomBytes(8).toString('hex'),
        title: checked.title as string,
        intro: checked.intro ?? '',
        img: checked.img ?? '',
        createdAt: deps.now(),
      };
      const outcome = await topics.add(record, TOPIC_LIMITS.max);
      if (outcome === 'title_taken') return badRequest('a topic of that title exists.');
      if (outcome === 'limit') return badRequest(`at most ${TOPIC_LIMITS.max} topics.`);
      return { ok: true, value: record };
    },
    async update(id, fields) {
      const checked = fieldsOf(fields, false);
      if ('ok' in checked) return checked;
      const outcome = await topics.update(id, checked);
      if (outcome === undefined) return notFound;
      if (outcome === 'title_taken') return badRequest('a topic of that title exists.');
      return found(id);
    },
    async remove(id) {
      const before = await found(id);
      if (!before.ok) return before;
      return (await topics.remove(id, deps.now())) ? before : notFound;
    },
  };
}
