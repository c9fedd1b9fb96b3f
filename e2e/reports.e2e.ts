import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, type E2eServer } from './support.js';

/** The operator's report queue and decision, as the demo app's server calls them. */
async function upholdFirst(server: E2eServer, memberId: string, reason: string, said = '垃圾广告: 外链') {
  const base = `${server.url}/api/v1/apps/demo-appkey/reports`;
  const auth = { authorization: 'Bearer demo-secret-key' };
  const queue = (await (await fetch(base, { headers: auth })).json()) as {
    content: Array<{ id: string; memberId: string; content: string }>;
  };
  const report = queue.content.find((r) => r.memberId === memberId);
  expect(report?.content).toBe(said);
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

  it("a member reports another's abusive comment; the operator upholds it; the comment alone is gone", async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    await signIn(alice.page, app.server, '13600136032', 'en');
    await alice.page.goto(`${app.server.url}/h5/#/member/add-article`);
    await alice.page.getByLabel('Title').fill('Our walk by the lake');
    await alice.page.getByLabel('Text').fill('The water was cold.');
    await alice.page.getByRole('button', { name: 'Publish' }).click();
    await alice.page.getByRole('button', { name: 'View content' }).click();
    await alice.page.waitForURL(/#\/article\/view\?id=/);
    const comments = alice.page.url().replace(/^.*#\/article\/view/, '#/article/ping');
    await alice.page.goto(`${app.server.url}/h5/${comments}`);
    await alice.page.getByLabel('Write a comment').fill('Thanks for reading');
    await alice.page.getByRole('button', { name: 'Send' }).click();
    // In the list: until the send is answered the box still holds the text, and its hidden copy too.
    await alice.page.getByTestId('comment').getByText('Thanks for reading').waitFor();

    const carol = await phoneContext(app.browser, 'en-US');
    await signIn(carol.page, app.server, '13600136033', 'en');
    await carol.page.goto(`${app.server.url}/h5/${comments}`);
    await carol.page.getByLabel('Write a comment').fill('You are all idiots');
    await carol.page.getByRole('button', { name: 'Send' }).click();
    // In the list: until the send is answered the box still holds the text, and its hidden copy too.
    await carol.page.getByTestId('comment').getByText('You are all idiots').waitFor();
    await carol.context.close();

    const bob = await phoneContext(app.browser, 'en-US');
    const bobId = await signIn(bob.page, app.server, '13600136034', 'en');
    await bob.page.goto(`${app.server.url}/h5/${comments}`);
    const rude = bob.page.getByTestId('comment').filter({ hasText: 'You are all idiots' });
    await rude.getByRole('button', { name: 'Report' }).click();
    await bob.page.getByText('Abuse or harassment').click();
    await bob.page.getByLabel('Tell us more (optional)').fill('insults');
    await bob.page.screenshot({ path: `${SHOTS}report-comment-en.png` });
    await bob.page.getByRole('button', { name: 'Send report' }).click();
    await bob.page.getByText('Reported: we will review it').waitFor();

    await upholdFirst(app.server, bobId, 'Insults', 'Abuse or harassment: insults');
    await bob.page.reload();
    await bob.page.getByText('Thanks for reading').waitFor();
    expect(await bob.page.getByText('You are all idiots').count()).toBe(0);
    await bob.page.goto(`${app.server.url}/h5/#/article/jubao_view`);
    await bob.page.getByText('You are all idiots').click();
    await bob.page.waitForURL(/#\/article\/jubao_view\?id=/);
    await bob.page.getByText('A comment on an article').waitFor();
    await bob.page.screenshot({ path: `${SHOTS}report-comment-decided-en.png` });
    await bob.page.getByText('Upheld: removed').waitFor();
    expect(alice.dialogs).toEqual([]);
    expect(bob.dialogs).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});
