// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import { PagedList } from './PagedList';
import { usePagedList } from './paged';
import { ApiError } from './request';

beforeAll(() => installAntdRender());
afterEach(() => cleanup());

const item = (n: number) => ({ id: `i${n}` });

/** A page of items over `fetchPage`, each shown by its id. */
function Items({ fetchPage }: { fetchPage: (before: string | undefined) => Promise<{ id: string }[]> }) {
  const list = usePagedList(['items'], fetchPage, true);
  return (
    <PagedList list={list} empty={<p>Nothing here</p>}>
      {(items) => (
        <ul>
          {items.map((i) => (
            <li key={i.id}>{i.id}</li>
          ))}
        </ul>
      )}
    </PagedList>
  );
}

async function click(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
    await Promise.resolve();
  });
}

describe('PagedList', () => {
  it('shows what is empty as the page says', async () => {
    renderApp(<Items fetchPage={() => Promise.resolve([])} />);
    await vi.waitFor(() => expect(screen.getByText('Nothing here')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says why the first page failed, and tries again', async () => {
    const fetchPage = vi
      .fn<(before: string | undefined) => Promise<{ id: string }[]>>()
      .mockRejectedValueOnce(new ApiError('network', 'offline'))
      .mockResolvedValueOnce([item(1)]);
    renderApp(<Items fetchPage={fetchPage} />);
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy());
    await click('Retry');
    await vi.waitFor(() => expect(screen.getByText('i1')).toBeTruthy());
  });

  it('keeps what it has when a next page fails, says why over the button, and loads it on a second try', async () => {
    const first = Array.from({ length: 20 }, (_, n) => item(n));
    const fetchPage = vi
      .fn<(before: string | undefined) => Promise<{ id: string }[]>>()
      .mockResolvedValueOnce(first)
      .mockRejectedValueOnce(new ApiError('network', 'offline'))
      .mockResolvedValueOnce([item(20)]);
    renderApp(<Items fetchPage={fetchPage} />);
    await vi.waitFor(() => expect(screen.getByText('i19')).toBeTruthy());
    await click('Load more');
    await vi.waitFor(() => expect(document.querySelector('.paged-more-error')).not.toBeNull());
    expect(screen.getByText('i0')).toBeTruthy();
    await click('Load more');
    await vi.waitFor(() => expect(screen.getByText('i20')).toBeTruthy());
    expect(fetchPage.mock.calls.map(([before]) => before)).toEqual([undefined, 'i19', 'i19']);
    // The last page was short: no button for more.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
