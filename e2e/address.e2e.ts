import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn } from './support.js';

describe('shipping addresses end to end', () => {
  const app = appUnderTest();

  it('a member adds two addresses in Chinese, makes the second the default and deletes the first', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'zh-CN');
    await signIn(page, app.server, '13500135004', 'zh-CN');

    await page.goto(`${app.server.url}/h5/#/member/sz`);
    await page.getByText('收货地址', { exact: true }).click();
    await page.getByText('还没有收货地址').waitFor();
    for (const [name, detail] of [
      ['李雷', '西湖路 1 号'],
      ['韩梅梅', '文三路 2 号'],
    ] as const) {
      await page.getByRole('button', { name: '新增收货地址' }).click();
      await page.waitForURL(/#\/member\/address-add/);
      await page.getByRole('textbox', { name: '收货人' }).fill(name);
      await page.getByRole('textbox', { name: '手机号码' }).fill('13500135004');
      await page.getByRole('textbox', { name: '所在地区' }).fill('浙江省 杭州市 西湖区');
      await page.getByRole('textbox', { name: '详细地址' }).fill(detail);
      await page.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(/#\/member\/address$/);
      await page.getByText(name, { exact: true }).waitFor();
    }
    const rows = page.getByTestId('address');
    await expect.poll(() => rows.count()).toBe(2);
    // The first added is the default, listed first.
    expect(await rows.first().innerText()).toContain('李雷');
    expect(await rows.first().innerText()).toContain('默认');

    await rows.nth(1).getByText('设为默认地址').click();
    await expect.poll(() => rows.first().innerText()).toContain('韩梅梅');
    await page.screenshot({ path: `${SHOTS}addresses-zh.png` });

    await rows.nth(1).getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('默认');
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
