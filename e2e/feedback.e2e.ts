import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, pngFile, signIn } from './support.js';

describe('feedback end to end', () => {
  const app = appUnderTest();

  it('a member sends feedback in Chinese with a real screenshot and finds it in their list', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'zh-CN');
    const id = await signIn(page, app.server, '13500135002', 'zh-CN');

    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByText('意见反馈', { exact: true }).click();
    await page.waitForURL(/#\/member\/feedback$/);

    // Refused before anything is sent: the description is required.
    await page.getByRole('button', { name: '提交' }).click();
    await page.getByText('请描述遇到的问题').waitFor();

    const png = pngFile(48, 32, (x) => (x < 24 ? [20, 120, 220] : [240, 240, 240]));
    await page.locator('input[type=file]').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: png });
    const thumb = page.getByRole('img', { name: '截图 1' });
    await thumb.waitFor();
    const url = (await thumb.getAttribute('src')) ?? '';
    expect(url).toMatch(new RegExp(`^${app.server.url}/uploads/product/[0-9a-f]{16}/${id}/parley_[a-z0-9]{32}\\.png$`));

    await page.getByRole('textbox', { name: '问题描述' }).fill('打开聊天时页面没有刷新');
    await page.getByRole('textbox', { name: '联系电话' }).fill('135 0013 5002');
    await page.screenshot({ path: `${SHOTS}feedback-form-zh.png` });
    await page.getByRole('button', { name: '提交' }).click();

    await page.waitForURL(/#\/member\/feedback-list/);
    const item = page.getByTestId('feedback-item');
    await item.getByText('打开聊天时页面没有刷新').waitFor();
    await item.getByText('刚刚').waitFor();
    const shown = item.getByRole('img', { name: '截图 1' });
    // Decoded by the browser: the screenshot is the uploaded image.
    await expect
      .poll(() => shown.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth))
      .toBe(48);
    await page.screenshot({ path: `${SHOTS}feedback-list-zh.png` });

    // What the server keeps is what the member sent.
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string }).token,
    );
    const listed = (await (
      await fetch(`${app.server.url}/index.php/api/member/feedback_list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      })
    ).json()) as { ret: { content: string; phone: string; imgs: string[] }[] };
    expect(listed.ret).toEqual([
      expect.objectContaining({ content: '打开聊天时页面没有刷新', phone: '13500135002', imgs: [url] }),
    ]);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
