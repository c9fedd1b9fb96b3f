// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { relativeTime } from './time';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);

describe('relative time labels (spec §9)', () => {
  const i18n = createI18n('en');
  const label = (ago: number) => relativeTime(NOW - ago, NOW, i18n.t, 'en');

  it('reads "just now" under 5 minutes, and for a time slightly ahead', () => {
    expect(label(0)).toBe('just now');
    expect(label(5 * MIN - 1)).toBe('just now');
    expect(label(-10_000)).toBe('just now');
  });

  it('counts minutes under an hour, hours under a day, days under 30 days', () => {
    expect(label(5 * MIN)).toBe('5 min ago');
    expect(label(HOUR - 1)).toBe('59 min ago');
    expect(label(HOUR)).toBe('1 h ago');
    expect(label(DAY - 1)).toBe('23 h ago');
    expect(label(DAY)).toBe('1 d ago');
    expect(label(30 * DAY - 1)).toBe('29 d ago');
  });

  it('shows the date from 30 days on', () => {
    expect(label(30 * DAY)).toBe(
      new Intl.DateTimeFormat('en', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(NOW - 30 * DAY),
    );
  });

  it('speaks Chinese too', () => {
    const zh = createI18n('zh-CN');
    expect(relativeTime(NOW - 2 * HOUR, NOW, zh.t, 'zh-CN')).toBe('2 小时前');
    expect(relativeTime(NOW, NOW, zh.t, 'zh-CN')).toBe('刚刚');
  });
});
