import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, type E2eServer } from './support.js';

/** The operator's report queue and decision, as the demo app's server calls them. */
async function upholdFirst(server: E2eServer, memberId: string, reason: string) {
  const base = `${server.url}/api/v1/apps/demo-appkey/reports`;
  const auth = { authorization: 'Bearer demo-secret-key' };
  const queue = (await (await fetch(base, { headers: auth })).json()) as {
    content: Array<{ id: string; memberId: string; content: string }>;
  };
  const report = queue.content.find((r) => r.memberId === memberId);
  expect(report?.content).toBe('垃圾广告: 外链');
  const res = await fetch(`${base}/${report?.id}/review`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ uphold: true, reason }),
  });
  expect(res.status).toBe(200);
}

describe('reports end to end', () => {
  const app = appUnderTest();

  it('a member reports an advert; the operator upholds it; it is gone and the reporter is told', async () => {
    const alice = await phoneContext(app.browser, 'zh-CN');
    await signIn(alice.page, app.server, '13600136030', 'zh-CN');
    await alice.page.goto(`${app.server.url}/h5/#/member/add-article`);
    await alice.page.getByLabel('标题').fill('便宜手表大促销');
    await alice.page.getByLabel('正文').fill('点这里购买');
    await alice.page.getByRole('button', { name: '发布' }).click();
    await alice.page.getByRole('button', { name: '查看内容' }).click();
    await alice.page.waitForURL(/#\/article\/view\?id=/);
    const link = alice.page.url().replace(/^.*#/, '#');
    await alice.context.close();

    const bob = await phoneContext(app.browser, 'zh-CN');
    const bobId = await signIn(bob.page, app.server, '13600136031', 'zh-CN');
    await bob.page.goto(`${app.server.url}/h5/${link}`);
    await bob.page.getByRole('button', { name: '举报' }).click();
    await bob.page.getByText('垃圾广告').click();
    await bob.page.getByLabel('补充说明（选填）').fill('外链');
    await bob.page.screenshot({ path: `${SHOTS}report-zh.png` });
    await bob.page.getByRole('button', { name: '提交举报' }).click();
    await bob.page.getByText('已举报，我们会尽快审核').waitFor();

    await upholdFirst(app.server, bobId, '广告');
    await bob.page.reload();
    await bob.page.getByText('内容不存在或已被作者删除').waitFor();
    await bob.page.goto(`${app.server.url}/h5/#/member/notify`);
    await bob.page.getByText('你对《便宜手表大促销》的举报成立，内容已删除：广告').click();
    await bob.page.waitForURL(/#\/article\/jubao_view\?id=/);
    await bob.page.getByText('举报成立，已删除').waitFor();
    expect(bob.dialogs).toEqual([]);
    await bob.context.close();
  });
});
