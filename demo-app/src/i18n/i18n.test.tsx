// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import LanguagePage from '../pages/member/language';
import { renderApp } from '../test-utils';
import { en } from './en';
import { initialLanguage } from './index';
import { zhCN } from './zh-CN';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

/** Every key path of a nested dictionary. */
const keys = (dict: object, prefix = ''): string[] =>
  Object.entries(dict).flatMap(([k, v]) =>
    typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

describe('i18n', () => {
  it('has the same keys in both languages, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(zhCN).sort());
    for (const dict of [en, zhCN]) {
      for (const section of Object.values(dict)) for (const text of Object.values(section)) expect(text).not.toBe('');
    }
  });

  it('switches language on the language page, re-renders and remembers the choice', async () => {
    const { i18n } = renderApp(<LanguagePage />, { language: 'en' });
    expect(screen.getByText('Language')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('简体中文'));
      await Promise.resolve();
    });
    expect(i18n.language).toBe('zh-CN');
    expect(screen.getByText('语言')).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('zh-CN');
    expect(initialLanguage()).toBe('zh-CN');
  });
});
