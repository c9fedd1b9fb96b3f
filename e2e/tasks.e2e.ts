import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

describe('task centre end to end', () => {
  const app = appUnderTest();

  it('a member signs in for the day once, and finds the coins in the ledger', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'zh-CN');
    await signIn(page, app.server, '13300133004', 'zh-CN');
    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByText('任务中心', { exact: true }).click();
    await page.waitForURL(/#\/renwu\/index$/);
    await page.getByRole('button', { name: '今日签到' }).click();
    await page.getByRole('button', { name: '今日已签到' }).waitFor();
    expect(await page.getByTestId('coins').textContent()).toBe('10');
    await page.getByText('已连续签到 1 天').waitFor();
    await page.screenshot({ path: `${SHOTS}tasks-zh.png` });

    // The day is signed on the server too: a reload shows it, and the ledger holds the coins.
    await page.reload();
    await page.getByRole('button', { name: '今日已签到' }).waitFor();
    await page.getByText('金币', { exact: true }).click();
    await page.waitForURL(/#\/renwu\/jinbi$/);
    const line = page.getByTestId('coin-line');
    await line.getByText('每日签到').waitFor();
    expect(await line.count()).toBe(1);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
