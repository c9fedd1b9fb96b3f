import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, type E2eServer } from './support.js';

/** Adds an article channel as the operator does, answering its id. */
async function addChannel(server: E2eServer, name: string, isDefault = true): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/apps/demo-appkey/article-channels`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-secret-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name, isDefault }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: { id: string } }).content.id;
}

describe('article channels end to end', () => {
  const app = appUnderTest();

  it('the operator adds channels; a member files an article under one, chooses and orders the front page tabs', async () => {
    await addChannel(app.server, '科技');
    await addChannel(app.server, '旅行');
    await addChannel(app.server, '美食', false);

    const { context, page } = await phoneContext(app.browser, 'zh-CN');
    await signIn(page, app.server, '13600136040', 'zh-CN');
    await page.goto(`${app.server.url}/h5/#/member/add-article`);
    await page.getByLabel('标题').fill('湖边走了一下午');
    await page.getByLabel('正文').fill('水很凉。');
    await page.getByText('旅行', { exact: true }).click();
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByRole('button', { name: '查看内容' }).click();
    await page.getByTestId('article-channel').getByText('旅行').waitFor();

    // The front page: Recommended and the default channels; the Travel tab lists the article.
    await page.goto(`${app.server.url}/h5/#/pages/article/index`);
    await page.getByRole('tab', { name: '旅行' }).click();
    await page.getByTestId('article').getByText('湖边走了一下午').waitFor();
    await page.getByRole('tab', { name: '科技' }).click();
    await page.getByText('这个频道还没有文章').waitFor();

    // Channel management: add Food, move it first, remove Tech; the last one stays.
    await page.getByRole('button', { name: '频道', exact: true }).click();
    await page.waitForURL(/#\/article\/typeid$/);
    await page.getByRole('button', { name: '添加美食' }).click();
    await page.getByRole('button', { name: '前移美食' }).click();
    await page.getByRole('button', { name: '前移美食' }).click();
    await page.getByRole('button', { name: '移除科技' }).click();
    await page.getByRole('button', { name: '添加科技' }).waitFor();
    await page.screenshot({ path: `${SHOTS}channels-zh-CN.png` });
    await page.getByRole('button', { name: '移除旅行' }).click();
    await page.getByRole('button', { name: '添加旅行' }).waitFor();
    await page.getByRole('button', { name: '移除美食' }).click();
    await page.getByText('至少保留一个频道').waitFor();

    // The choice is the member's: kept by the server, in their order.
    await page.goto(`${app.server.url}/h5/#/pages/article/index`);
    await page.getByRole('tab', { name: '美食' }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['推荐', '美食']);
    await page.reload();
    await page.getByRole('tab', { name: '美食' }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['推荐', '美食']);
    await page.screenshot({ path: `${SHOTS}front-channels-zh-CN.png` });
    await context.close();
  });
});
